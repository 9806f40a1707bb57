/* The overview's groups fold (<details class="group">): served open when a component in the group
   is not operational, folded otherwise. A reader's own choice is remembered in localStorage
   (component-groups) for the state it was made in: a group folded while all was well opens
   again when one of its components is not, also while the page is open. Without JavaScript the groups fold and unfold as
   served. */
(function () {
  "use strict";
  var KEY = "component-groups";
  var groups = document.querySelectorAll("details.group[data-group]");
  if (!groups.length) return;

  function read() {
    try {
      return JSON.parse(window.localStorage.getItem(KEY)) || {};
    } catch (error) {
      return {};  // storage refused (private mode) or unreadable: the served state stands
    }
  }

  function write(choices) {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(choices));
    } catch (error) { /* storage refused: the choice lasts as long as the page */ }
  }

  // A choice is kept under the group and the state it was served in ("core:closed").
  function keyOf(group) {
    return group.getAttribute("data-group") + ":" + group.getAttribute("data-served");
  }

  var choices = read();
  groups.forEach(function (group) {
    group.setAttribute("data-served", group.open ? "open" : "closed");
    var choice = choices[keyOf(group)];
    if (choice === "open" || choice === "closed") group.open = choice === "open";
    group.addEventListener("toggle", function () {
      if (group.hasAttribute("data-unfolded-by-page")) {
        group.removeAttribute("data-unfolded-by-page");
        return;  // opened by the refresh below, not by the reader
      }
      var now = read();
      now[keyOf(group)] = group.open ? "open" : "closed";
      write(now);
    });
  });

  // A group whose status turns from operational to something else while the page is open
  // (refresh.js replaced its fold's status) opens, as it would be served now.
  document.addEventListener("refresh:replaced", function (event) {
    var group = event.detail.closest && event.detail.closest("details.group[data-group]");
    if (!group || group.open || group.getAttribute("data-served") === "open") return;
    if (event.detail.querySelector(".badge") && !event.detail.querySelector(".badge.status-operational")) {
      group.setAttribute("data-served", "open");
      group.setAttribute("data-unfolded-by-page", "");
      group.open = true;
    }
  });
})();
