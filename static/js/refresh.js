/* Progressive refresh. A page opts in with data-refresh-interval="<seconds>" on <body>; every
   element with an id and data-refresh takes the content of the element of the same id from the page
   fetched again, when the page changed (the server answers 304 to our ETag when it did not).
   Relative ages (<time data-age>) are rewritten in between. Without JavaScript nothing of
   this runs and the page is whole as served. Paused while the tab is hidden. */
(function () {
  "use strict";
  var body = document.body;
  var seconds = parseInt(body.getAttribute("data-refresh-interval"), 10);
  if (!seconds || seconds < 5 || !window.fetch || !window.DOMParser) return;
  var etag = null;
  var last = Date.now();
  var busy = false;
  var lang = document.documentElement.lang || "en";
  // Made on first use (the first tick, seconds after load): building it loads the language's
  // data, a long task that would hold up a page whose ages the server has just written.
  var relative = null;

  // As the server says them (incidents.formatting.format_age): whole units, rounded.
  function ageText(elapsed) {
    var s = Math.max(1, Math.round(elapsed / 1000));
    if (s < 60) return relative.format(-s, "second");
    var m = Math.round(s / 60);
    if (m < 60) return relative.format(-m, "minute");
    var h = Math.round(m / 60);
    if (h < 24) return relative.format(-h, "hour");
    return relative.format(-Math.round(h / 24), "day");
  }

  function updateAges(root) {
    if (!relative && window.Intl && Intl.RelativeTimeFormat) {
      relative = new Intl.RelativeTimeFormat(lang, { numeric: "always" });
    }
    if (!relative) return;
    var now = Date.now();
    (root || document).querySelectorAll("time[data-age][datetime]").forEach(function (time) {
      var at = Date.parse(time.getAttribute("datetime"));
      if (!isNaN(at)) time.textContent = ageText(now - at);
    });
  }

  function holdsReader(element) {
    // Never pull content from under a reader: a focused control or an open popover stays.
    return element.contains(document.activeElement) && document.activeElement !== body ||
      element.querySelector(".day-popover, details[open]") !== null;
  }

  function apply(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    document.querySelectorAll("[data-refresh][id]").forEach(function (old) {
      var found = fresh.getElementById(old.id);
      if (!found || holdsReader(old) || found.outerHTML === old.outerHTML) return;
      // The element stays (a live region keeps announcing); its attributes and content change.
      var copy = document.importNode(found, true);
      Array.prototype.slice.call(old.attributes).forEach(function (attribute) {
        if (!copy.hasAttribute(attribute.name)) old.removeAttribute(attribute.name);
      });
      Array.prototype.slice.call(copy.attributes).forEach(function (attribute) {
        old.setAttribute(attribute.name, attribute.value);
      });
      old.replaceChildren.apply(old, Array.prototype.slice.call(copy.childNodes));
      updateAges(old);
      document.dispatchEvent(new CustomEvent("refresh:replaced", { detail: old }));
    });
    var icon = fresh.querySelector('link[rel="icon"]');
    var current = document.querySelector('link[rel="icon"]');
    if (icon && current && icon.getAttribute("href") !== current.getAttribute("href")) {
      current.setAttribute("href", icon.getAttribute("href"));
    }
    if (fresh.title) document.title = fresh.title;
  }

  function poll() {
    if (busy || document.visibilityState === "hidden") return;
    busy = true;
    last = Date.now();
    var headers = { Accept: "text/html" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(window.location.href, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 304 || !response.ok) return null;
        etag = response.headers.get("ETag") || null;
        return response.text();
      })
      .then(function (html) {
        if (html) apply(html);
        updateAges();
      })
      .catch(function () { /* offline or server away: try again next time */ })
      .then(function () { busy = false; });
  }

  window.setInterval(function () {
    if (Date.now() - last >= seconds * 1000) poll(); else updateAges();
  }, 5000);
  // Anything that knows the page just changed (an editor's own action) can ask at once.
  document.addEventListener("refresh:now", poll);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && Date.now() - last >= seconds * 1000) poll();
  });
  // No rewrite of the ages at load: the server has just written them; the first tick does.
})();
