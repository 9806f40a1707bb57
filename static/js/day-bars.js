/* Day bars: each day that had something to tell is a link to that day's history (which is all
   there is without JavaScript); quiet days get theirs here. Here a click, a tap or Enter opens the day's popover instead: what the day
   says, its incidents and the link to its history, placed right after the day so Tab reaches
   it; Escape or a click elsewhere closes it. Arrow keys, Home and End move between days, so a
   bar is one stop for Tab rather than ninety. */
(function () {
  "use strict";
  var open = null;

  function visibleDays(list) {
    return Array.prototype.filter.call(list.querySelectorAll(":scope > li > a"), function (link) {
      return link.offsetParent !== null;
    });
  }

  function daysBefore(day, count) {
    var date = new Date(day + "T00:00:00Z");
    date.setUTCDate(date.getUTCDate() - count);
    return date.toISOString().slice(0, 10);
  }

  // A quiet day comes as text, not a link (its history says no more than its text): it becomes
  // its bar's last link, which is always there, with its own date counted back from that day's.
  // One bar at a time, as it is reached: all of them at once took a long task on a phone.
  function linkQuietDays(list) {
    var days = list.querySelectorAll(":scope > li > :is(a, span)");
    var href = days.length && days[days.length - 1].getAttribute("href");
    var lastDay = href && /\d{4}-\d\d-\d\d/.exec(href);
    if (!lastDay) return;
    Array.prototype.forEach.call(days, function (day, index) {
      if (day.tagName !== "SPAN") return;
      var link = document.createElement("a");
      link.href = href.split(lastDay[0]).join(daysBefore(lastDay[0], days.length - 1 - index));
      link.tabIndex = -1;
      link.setAttribute("aria-expanded", "false");
      link.textContent = day.textContent;
      day.replaceWith(link);
    });
  }

  // The page gives each bar one tab stop (its last day); arrow keys move it below.
  function prepare(root) {
    root.querySelectorAll("ol.days > li > a").forEach(function (link) {
      link.setAttribute("aria-expanded", "false");
    });
  }

  function close(returnFocus) {
    if (!open) return;
    var link = open.link;
    open.popover.remove();
    link.setAttribute("aria-expanded", "false");
    link.removeAttribute("aria-controls");
    open = null;
    if (returnFocus) link.focus();
  }

  // The day and its popover share a positioned box (.uptime on the overview, the uptime section
  // on a component's page): below the day, centred on it, never past the box's edges.
  function place(popover, item) {
    var box = popover.offsetParent || document.body;
    var left = item.offsetLeft + item.offsetWidth / 2 - popover.offsetWidth / 2;
    left = Math.max(0, Math.min(left, box.clientWidth - popover.offsetWidth));
    popover.style.left = left + "px";
    popover.style.top = item.offsetTop + item.offsetHeight + 6 + "px";
  }

  function show(link) {
    close(false);
    var item = link.parentElement;
    var popover = document.createElement("div");
    popover.className = "day-popover";
    popover.id = "day-popover";
    var text = document.createElement("p");
    text.textContent = link.textContent;
    popover.appendChild(text);
    var incidents = item.querySelector(":scope > ul[hidden]");
    if (incidents) {
      var copy = incidents.cloneNode(true);
      copy.hidden = false;
      popover.appendChild(copy);
    }
    var history = document.createElement("a");
    history.href = link.href;
    var labelled = link.closest("[data-day-history]");
    history.textContent = labelled ? labelled.getAttribute("data-day-history") : link.textContent;
    var line = document.createElement("p");
    line.appendChild(history);
    popover.appendChild(line);
    item.appendChild(popover);
    place(popover, item);
    link.setAttribute("aria-expanded", "true");
    link.setAttribute("aria-controls", popover.id);
    open = { link: link, popover: popover };
  }

  document.addEventListener("click", function (event) {
    var day = event.target.closest && event.target.closest("ol.days > li > :is(a, span)");
    if (day) {
      event.preventDefault();
      var item = day.parentElement;
      linkQuietDays(item.parentElement);
      var link = item.querySelector(":scope > a");
      if (open && open.link === link) close(false); else show(link);
      return;
    }
    if (open && !open.popover.contains(event.target)) close(false);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && open) {
      close(true);
      return;
    }
    var link = event.target.closest && event.target.closest("ol.days > li > a");
    if (!link) return;
    var days = visibleDays(link.closest("ol.days"));
    var index = days.indexOf(link);
    var next = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: days.length - 1 }[event.key];
    if (next === undefined || !days[next]) return;
    event.preventDefault();
    var wasOpen = open && open.link === link;
    link.tabIndex = -1;
    days[next].tabIndex = 0;
    days[next].focus();
    if (wasOpen) show(days[next]); else close(false);
  });

  // aria-expanded matters only to the keyboard and to assistive technology, so it is set on the
  // first key press or focus (before the browser moves focus for that Tab) rather than on every
  // day of every bar at load.
  var prepared = false;
  function prepareOnce() {
    if (prepared) return;
    prepared = true;
    document.removeEventListener("keydown", prepareOnce, true);
    document.removeEventListener("focusin", prepareOnce, true);
    prepare(document);
  }
  document.addEventListener("keydown", prepareOnce, true);
  document.addEventListener("focusin", prepareOnce, true);
  // A bar's quiet days become links once a day of it has focus, so arrow keys reach each of them.
  document.addEventListener("focusin", function (event) {
    var list = event.target.closest && event.target.closest("ol.days");
    if (list) linkQuietDays(list);
  }, true);
  document.addEventListener("refresh:replaced", function (event) { if (prepared) prepare(event.detail); });
})();
