/* The status widget in one tag, for other sites:
     <script src="https://status.example.com/widget.js" async></script>
   puts an iframe of that site's /widget/ page (the status indicator and open incidents, with
   links) where the tag is, or inside the element named by data-target="some-id".
   Optional: data-lang="ru" (the widget's language; English by default), data-theme="light" or
   "dark" (by default the reader's system setting), data-title (the iframe's accessible name).
   The widget page tells its height (static/js/widget-frame.js) and the iframe follows it. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !script.src) return;
  var origin = new URL(script.src, document.baseURI).origin;
  var params = new URLSearchParams();
  ["lang", "theme"].forEach(function (name) {
    var value = script.getAttribute("data-" + name);
    if (value) params.set(name, value);
  });
  var query = params.toString();
  var frame = document.createElement("iframe");
  frame.src = origin + "/widget/" + (query ? "?" + query : "");
  frame.title = script.getAttribute("data-title") || "Service status";
  frame.className = "status-widget";
  frame.style.cssText = "border:0;width:100%;max-width:28rem;height:9rem;display:block";

  var target = script.getAttribute("data-target");
  var container = target ? document.getElementById(target) : null;
  if (container) container.appendChild(frame);
  else script.parentNode.insertBefore(frame, script.nextSibling);

  window.addEventListener("message", function (event) {
    if (event.origin !== origin || event.source !== frame.contentWindow) return;
    var height = event.data && event.data.statusWidgetHeight;
    if (typeof height === "number" && height > 0 && height < 4000) frame.style.height = Math.ceil(height) + "px";
  });
})();
