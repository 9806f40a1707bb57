// The editor's incident screen: while an update's notifications are queued, its "who was told"
// block is fetched again from the server (the same server-rendered fragment) until none is
// queued. Every 2 s for the first minute, then every 15 s. Without JavaScript the page shows
// the counts of the moment it was loaded.
(function () {
  "use strict";
  if (window.deliveriesPolling) return;
  window.deliveriesPolling = true;

  var FAST = 2000, SLOW = 15000, FAST_FOR = 60000;
  var started = Date.now();

  function schedule(id) {
    var delay = Date.now() - started < FAST_FOR ? FAST : SLOW;
    window.setTimeout(function () { refresh(id); }, delay);
  }

  function refresh(id) {
    var block = document.getElementById(id);
    if (!block || !block.hasAttribute("data-live")) return;
    fetch(block.getAttribute("data-deliveries-url"), { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        var current = document.getElementById(id);
        if (html && current) {
          var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(id);
          if (fresh) current.replaceWith(document.importNode(fresh, true));
        }
        schedule(id);
      })
      .catch(function () { schedule(id); });
  }

  function start() {
    document.querySelectorAll("[data-deliveries-url][data-live]").forEach(function (block) {
      schedule(block.id);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
