/* "Your time / the page's time": <time datetime="…" data-local> elements are shown in the
   reader's own zone when they choose it (remembered in localStorage for every page), formatted
   by the browser in the page's language. The toggle is a button with aria-pressed; the words
   beside it say which times show ("Times: your zone (Asia/Tokyo)"). The text served stays each
   time in the zone it names; without JavaScript the toggle stays hidden. */
(function () {
  "use strict";
  var KEY = "time-display";
  var toggle = document.getElementById("local-time-toggle");
  var state = document.getElementById("time-display-state");
  if (!toggle || !window.Intl || !Intl.DateTimeFormat) return;
  var lang = document.documentElement.lang || "en";
  var served = new WeakMap();
  // Made on first use: building a formatter loads the language's data, a long task at start-up
  // for the many readers who never choose their own time.
  var formats = null;
  // The hours as the server writes them (CLDR "Hm": 24-hour in every language), so a reader who
  // switches sees the same kind of clock, only in their zone.
  function options(parts) {
    var all = { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZoneName: "short" };
    var chosen = {};
    parts.forEach(function (part) { chosen[part] = all[part]; });
    return chosen;
  }
  function format(style, at) {
    if (!formats) {
      var date = ["year", "month", "day"], clock = ["hour", "minute", "hourCycle"];
      var long = { month: "long", weekday: "long" };
      formats = {
        datetime: new Intl.DateTimeFormat(lang, options(date.concat(clock, ["timeZoneName"]))),
        long: new Intl.DateTimeFormat(lang, Object.assign(options(date.concat(clock, ["timeZoneName"])), long)),
        // A window within one day: its start without the zone, its end with the time alone.
        "datetime-start": new Intl.DateTimeFormat(lang, options(date.concat(clock))),
        "long-start": new Intl.DateTimeFormat(lang, Object.assign(options(date.concat(clock)), long)),
        end: new Intl.DateTimeFormat(lang, options(clock.concat(["timeZoneName"]))),
        day: new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit" })
      };
    }
    return (formats[style] || formats.datetime).format(at);
  }

  // The start of a window ("<time>08:25</time> – <time>14:10 GMT+1</time>"): the <time> just
  // before this one with nothing but a dash between them.
  function windowStart(time) {
    var before = time.previousElementSibling;
    if (!before || before.tagName !== "TIME" || !before.hasAttribute("data-local")) return null;
    var between = "";
    for (var node = before.nextSibling; node && node !== time; node = node.nextSibling) between += node.textContent;
    return between.trim().length <= 3 && !/[0-9A-Za-z]/.test(between) ? before : null;
  }

  function stored() {
    try { return window.localStorage.getItem(KEY) === "local"; } catch (e) { return false; }
  }

  function remember(local) {
    try { window.localStorage.setItem(KEY, local ? "local" : "page"); } catch (e) { /* private mode */ }
  }

  function show(local, root) {
    (root || document).querySelectorAll("time[data-local][datetime]").forEach(function (time) {
      if (!served.has(time)) served.set(time, time.textContent);
      var at = new Date(time.getAttribute("datetime"));
      if (local && !isNaN(at)) {
        var style = time.getAttribute("data-local");
        var start = windowStart(time);
        var from = start && new Date(start.getAttribute("datetime"));
        if (from && !isNaN(from) && format("day", from) === format("day", at)) {
          start.textContent = format(style + "-start", from);
          time.textContent = format("end", at);
        } else {
          time.textContent = format(style, at);
        }
      } else {
        time.textContent = served.get(time);
      }
    });
  }

  function readerZone() {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return ""; }
  }

  function label(local) {
    toggle.setAttribute("aria-pressed", local ? "true" : "false");
    // "Times in Moscow Standard Time" would contradict times shown in the reader's zone.
    document.querySelectorAll("[data-zone-note]").forEach(function (note) { note.hidden = local; });
    if (!state) return;
    var zone = local ? readerZone() : "";
    state.textContent = state.getAttribute(local ? "data-label-local" : "data-label-page") + (zone ? " (" + zone + ")" : "");
  }

  var local = stored();
  toggle.hidden = false;
  if (state) state.hidden = false;
  label(local);
  // The page's time is what the server wrote: nothing to rewrite unless the reader chose theirs.
  if (local) show(true);
  toggle.addEventListener("click", function () {
    local = !local;
    remember(local);
    label(local);
    show(local);
  });
  document.addEventListener("refresh:replaced", function (event) { if (local) show(true, event.detail); });
})();
