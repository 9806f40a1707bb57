/* Inside the status widget's iframe: tells the embedding page (static/js/widget.js) how tall the
   widget is, so its iframe shows all of it without a scroll bar. */
(function () {
  "use strict";
  if (window.parent === window) return;
  function report() {
    // The body's own height: the document's would never shrink below the iframe's.
    window.parent.postMessage({ statusWidgetHeight: Math.ceil(document.body.getBoundingClientRect().height) }, "*");
  }
  report();
  window.addEventListener("load", report);
  if (window.ResizeObserver) new ResizeObserver(report).observe(document.body);
})();
