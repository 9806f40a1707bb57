// Small enhancements of the editor; every page works without this file.
(function () {
  "use strict";

  // Warn before leaving a form with unsaved changes.
  document.querySelectorAll("form[data-warn-unsaved]").forEach(function (form) {
    var dirty = false;
    form.addEventListener("input", function () { dirty = true; });
    form.addEventListener("submit", function () { dirty = false; });
    window.addEventListener("beforeunload", function (event) {
      if (dirty) { event.preventDefault(); event.returnValue = ""; }
    });
  });

  // Live Markdown preview, rendered by the server (the same sanitiser as the public page).
  document.querySelectorAll("form[data-preview-url]").forEach(function (form) {
    var url = form.getAttribute("data-preview-url");
    var token = form.querySelector("input[name=csrfmiddlewaretoken]").value;
    form.querySelectorAll("textarea[data-markdown]").forEach(function (area) {
      var target = form.querySelector('[data-preview-for="' + area.id + '"]');
      var timer = null;
      if (!target) { return; }
      area.addEventListener("input", function () {
        clearTimeout(timer);
        timer = setTimeout(function () {
          var body = new URLSearchParams({ text: area.value });
          fetch(url, { method: "POST", body: body, headers: { "X-CSRFToken": token }, credentials: "same-origin" })
            .then(function (response) { return response.ok ? response.text() : ""; })
            .then(function (html) { target.innerHTML = html; });
        }, 400);
      });
    });
  });

  // Ctrl/Cmd+Enter submits the form being typed in.
  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && event.target.form) {
      event.preventDefault();
      event.target.form.requestSubmit();
    }
  });

  // Single-key shortcuts, listed on the on-call screens (editor/_shortcuts.html). Single letters
  // outside text fields, as GitHub has them: Alt and Ctrl combinations belong to the browser.
  var SHORTCUTS = {
    n: "a[data-shortcut=declare]",
    u: "#update-form textarea[name=body]",
    r: "#resolve-form textarea",
    t: ".template-picker a[data-template]",
    "?": "details.shortcuts"
  };

  function typing(target) {
    return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing || typing(event.target)) { return; }
    var selector = SHORTCUTS[event.key];
    var target = selector && document.querySelector(selector);
    if (!target) { return; }
    event.preventDefault();
    if (target.matches("a[data-shortcut]")) {
      window.location.assign(target.href);
    } else if (target.tagName === "DETAILS") {
      target.open = true;
      target.scrollIntoView({ block: "nearest" });
      target.querySelector("summary").focus();
    } else {
      target.scrollIntoView({ block: "center" });
      target.focus();
    }
  });
})();
