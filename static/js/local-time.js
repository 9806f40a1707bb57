/* "Your time / the page's time": <time datetime="…" data-local> elements are shown in the
   reader's own zone when they choose it (remembered in localStorage), formatted by the browser
   in the page's language. The text served stays the page's time; without JavaScript the
   toggle stays hidden. */
(function () {
  "use strict";
  var KEY = "time-display";
  var toggle = document.getElementById("local-time-toggle");
  if (!toggle || !window.Intl || !Intl.DateTimeFormat) return;
  var lang = document.documentElement.lang || "en";
  var served = new WeakMap();
  // Made on first use: building a formatter loads the language's data, a long task at start-up
  // for the many readers who never choose their own time.
  var formats = null;
  function format(style, at) {
    if (!formats) {
      formats = {
        datetime: new Intl.DateTimeFormat(lang, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" }),
        long: new Intl.DateTimeFormat(lang, { weekday: "long", year: "numeric", month: "long", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" })
      };
    }
    return (formats[style] || formats.datetime).format(at);
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
        time.textContent = format(time.getAttribute("data-local"), at);
      } else {
        time.textContent = served.get(time);
      }
    });
  }

  function label(local) {
    toggle.setAttribute("aria-pressed", local ? "true" : "false");
  }

  var local = stored();
  toggle.hidden = false;
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
