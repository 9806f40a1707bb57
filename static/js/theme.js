// The theme toggle in the header: light, dark or the system's choice, kept in localStorage
// under "theme". The inline snippet in <head> applies a kept choice before the first paint;
// this script only shows the button and handles clicks. Without JavaScript the button stays
// hidden and the system preference applies.
(function () {
  "use strict";
  var root = document.documentElement;
  var button = document.querySelector("[data-theme-toggle]");
  if (!button) return;
  var systemDark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;

  function stored() {
    try {
      var value = localStorage.getItem("theme");
      return value === "light" || value === "dark" ? value : "system";
    } catch (e) {
      return "system";
    }
  }

  function effective(choice) {
    if (choice !== "system") return choice;
    return systemDark && systemDark.matches ? "dark" : "light";
  }

  function show(choice) {
    if (choice === "system") root.removeAttribute("data-theme");
    else root.setAttribute("data-theme", choice);
    button.setAttribute("data-choice", choice);
    button.querySelector("[data-theme-label]").textContent = button.getAttribute("data-label-" + choice);
  }

  // From the system's look, the first click switches to the other look; the second to the
  // first look explicitly; the third back to following the system.
  function next(choice) {
    if (choice === "system") return effective("system") === "dark" ? "light" : "dark";
    return effective("system") === choice ? "system" : choice === "dark" ? "light" : "dark";
  }

  button.addEventListener("click", function () {
    var choice = next(stored());
    try {
      if (choice === "system") localStorage.removeItem("theme");
      else localStorage.setItem("theme", choice);
    } catch (e) {
      // Storage refused (private mode): the choice lasts for this page only.
    }
    show(choice);
  });
  window.addEventListener("storage", function (event) {
    if (event.key === "theme") show(stored());
  });
  show(stored());
  button.hidden = false;
})();
