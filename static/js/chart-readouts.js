/* Readouts: what the chart says at the point under the pointer or the keyboard, in a small tip
   above it.
   - A line (an svg with data-readouts, one text a point, written by the server in the page's
     language and zone: the 24-hour sparklines, a metric's charts) becomes one Tab stop, a slider
     over its points: the pointer or the arrow keys, Home and End pick a point, a hairline marks
     it, and its text ("14:00: 1.8 s") is in the stop's accessible name and value. Points sit
     evenly across the line, or where data-readout-x places them (viewBox units, one a point).
   - A day of the day bars shows its text (the day's link, already its accessible name) while
     pointed at or focused; a click still opens its popover (day-bars.js).
   A dot marks the picked point where the line has a value.
   Without JavaScript the charts keep their text alternatives and the days their links. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var tip = document.createElement("span");
  tip.className = "chart-readout";
  tip.setAttribute("aria-hidden", "true");  // the focused element says the same in its name
  // The picked point on the line: HTML, since a stretched chart would draw a circle as an oval.
  var dot = document.createElement("span");
  dot.className = "chart-readout-dot";
  dot.setAttribute("aria-hidden", "true");

  function hideTip() {
    tip.remove();
    dot.remove();
    document.querySelectorAll("svg[data-readouts] .cursor").forEach(function (line) { line.remove(); });
  }

  // Centred on `x` (px from the box's left edge), above `top`, kept over the box when wider.
  function showTip(box, text, x, top) {
    tip.textContent = text;
    box.appendChild(tip);
    var width = tip.offsetWidth;
    var left = x - width / 2;
    left = Math.max(left, Math.min(0, box.clientWidth - width));
    left = Math.min(left, Math.max(0, box.clientWidth - width));
    tip.style.left = left + "px";
    tip.style.top = top - tip.offsetHeight - 4 + "px";
  }

  // == The lines ==
  function chartOf(holder) {
    return holder.querySelector("svg[data-readouts]");
  }

  function texts(holder) {
    return JSON.parse(chartOf(holder).getAttribute("data-readouts"));
  }

  // Each point's place along the line, in the svg's viewBox units.
  function places(holder) {
    var svg = chartOf(holder);
    var given = svg.getAttribute("data-readout-x");
    if (given) return JSON.parse(given);
    var count = texts(holder).length;
    var width = svg.viewBox.baseVal.width;
    var evenly = [];
    for (var i = 0; i < count; i++) evenly.push(count > 1 ? i * width / (count - 1) : 0);
    return evenly;
  }

  function select(holder, index) {
    var readouts = texts(holder);
    var text = readouts[index];
    var svg = chartOf(holder);
    holder.setAttribute("aria-valuenow", String(index));
    holder.setAttribute("aria-valuetext", text);
    holder.setAttribute("aria-label", svg.getAttribute("aria-label") + ". " + text);
    return text;
  }

  // Where the line passes at `x` (viewBox units), or null where it has no value.
  function lineY(svg, x) {
    var marks = svg.querySelectorAll(".line");
    for (var i = 0; i < marks.length; i++) {
      var mark = marks[i];
      if (mark.tagName === "circle") {
        if (Math.abs(mark.cx.baseVal.value - x) < 0.06) return mark.cy.baseVal.value;
        continue;
      }
      var points = mark.points;
      for (var j = 0; j < points.numberOfItems; j++) {
        var at = points.getItem(j);
        if (Math.abs(at.x - x) < 0.06) return at.y;
      }
    }
    return null;
  }

  function point(holder, index) {
    var svg = chartOf(holder);
    var readouts = texts(holder);
    var box = svg.viewBox.baseVal;
    var x = places(holder)[index];
    hideTip();
    var line = document.createElementNS(SVG, "line");
    line.setAttribute("class", "cursor");
    line.setAttribute("x1", x); line.setAttribute("x2", x);
    line.setAttribute("y1", 0); line.setAttribute("y2", box.height);
    svg.appendChild(line);
    var drawn = svg.getBoundingClientRect();
    var frame = holder.getBoundingClientRect();
    var left = drawn.left - frame.left + x * drawn.width / box.width;
    var y = lineY(svg, x);
    if (y !== null) {
      holder.appendChild(dot);
      dot.style.left = left - dot.offsetWidth / 2 + "px";
      dot.style.top = drawn.top - frame.top + y * drawn.height / box.height - dot.offsetHeight / 2 + "px";
    }
    showTip(holder, readouts[index], left, drawn.top - frame.top);
  }

  function prepare(root) {
    root.querySelectorAll("svg[data-readouts]").forEach(function (svg) {
      var holder = svg.parentElement;
      var readouts = JSON.parse(svg.getAttribute("data-readouts"));
      if (!readouts.length || holder.hasAttribute("data-readout")) return;
      holder.setAttribute("data-readout", "");
      holder.tabIndex = 0;
      holder.setAttribute("role", "slider");
      // A slider's content is presentational: the chart's description moves to the slider.
      var described = svg.getAttribute("aria-describedby");
      if (described) holder.setAttribute("aria-describedby", described);
      holder.setAttribute("aria-valuemin", "0");
      holder.setAttribute("aria-valuemax", String(readouts.length - 1));
      select(holder, readouts.length - 1);  // the current hour
    });
  }

  function holderOf(target) {
    return target.closest && target.closest("[data-readout]");
  }

  function indexAt(holder, clientX) {
    var svg = chartOf(holder);
    var rect = svg.getBoundingClientRect();
    var x = (clientX - rect.left) / rect.width * svg.viewBox.baseVal.width;
    var xs = places(holder);
    var nearest = 0;
    for (var i = 1; i < xs.length; i++) {
      if (Math.abs(xs[i] - x) < Math.abs(xs[nearest] - x)) nearest = i;
    }
    return nearest;
  }

  document.addEventListener("pointermove", function (event) {
    if (event.pointerType === "touch") return;
    var holder = holderOf(event.target);
    if (holder) point(holder, indexAt(holder, event.clientX));
  });
  document.addEventListener("pointerout", function (event) {
    var holder = holderOf(event.target);
    if (!holder || holder.contains(event.relatedTarget)) return;
    if (document.activeElement === holder) point(holder, Number(holder.getAttribute("aria-valuenow")));
    else hideTip();
  });
  // A tap picks the hour under the finger and keeps it, as a key would.
  document.addEventListener("click", function (event) {
    var holder = holderOf(event.target);
    if (!holder) return;
    var index = indexAt(holder, event.clientX);
    select(holder, index);
    point(holder, index);
  });
  document.addEventListener("keydown", function (event) {
    var holder = holderOf(event.target);
    if (!holder) return;
    if (event.key === "Escape") { hideTip(); return; }
    var last = texts(holder).length - 1;
    var index = Number(holder.getAttribute("aria-valuenow"));
    var next = {
      ArrowLeft: index - 1, ArrowDown: index - 1, ArrowRight: index + 1, ArrowUp: index + 1,
      Home: 0, End: last
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    next = Math.max(0, Math.min(last, next));
    select(holder, next);
    point(holder, next);
  });

  // == Days of the day bars ==
  function dayOf(target) {
    return target.closest && target.closest("ol.days > li > :is(a, span)");
  }

  // Above the day, centred on it, never past the edges of the bar's box (where the popover goes).
  function showDay(link) {
    if (link.getAttribute("aria-expanded") === "true") return;  // its popover says more
    var item = link.parentElement;
    hideTip();
    tip.textContent = link.textContent;
    item.appendChild(tip);
    var box = tip.offsetParent || document.body;
    var left = item.offsetLeft + item.offsetWidth / 2 - tip.offsetWidth / 2;
    left = Math.max(0, Math.min(left, box.clientWidth - tip.offsetWidth));
    tip.style.left = left + "px";
    tip.style.top = item.offsetTop - tip.offsetHeight - 4 + "px";
  }

  // A pointer that has not moved is over a day day-bars.js just put in place of the one it was
  // over: the focused day keeps the tip.
  var resting = null;
  document.addEventListener("pointerover", function (event) {
    if (event.pointerType === "touch") return;
    var at = event.clientX + "," + event.clientY;
    var moved = at !== resting;
    resting = at;
    var link = dayOf(event.target);
    if (link && moved) showDay(link);
  });
  document.addEventListener("pointerout", function (event) {
    var link = dayOf(event.target);
    if (link && document.activeElement !== link && !link.contains(event.relatedTarget)) hideTip();
  });

  document.addEventListener("focusin", function (event) {
    var holder = holderOf(event.target);
    if (holder) { point(holder, Number(holder.getAttribute("aria-valuenow"))); return; }
    var link = dayOf(event.target);
    if (link) showDay(link); else hideTip();
  });
  document.addEventListener("focusout", function (event) {
    if (holderOf(event.target) || dayOf(event.target)) hideTip();
  });
  // A day's popover opening (a click, Enter) takes the tip's place.
  document.addEventListener("click", function (event) {
    if (dayOf(event.target)) hideTip();
  }, true);

  prepare(document);
  document.addEventListener("refresh:replaced", function (event) { prepare(event.detail); });
})();
