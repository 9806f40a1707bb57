// The update form: choosing "Resolved" (or "Completed") shows where the resolve rule puts each
// component (editor/_resolution.html) and moves each affected component's status there, unless
// the responder chose one by hand; choosing another status puts them back. Without this file the
// plan is always shown, and the server applies the same rule.
(function () {
  "use strict";

  function initial(select) {
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].defaultSelected) { return select.options[i].value; }
    }
    return select.options.length ? select.options[0].value : "";
  }

  document.querySelectorAll("[data-closing-plan]").forEach(function (plan) {
    var form = plan.closest("form");
    var status = form && form.elements.namedItem("status");
    if (!status) { return; }
    var closing = plan.getAttribute("data-closing-plan");
    var chosenByHand = {};
    form.addEventListener("change", function (event) {
      if (event.isTrusted && /^status_/.test(event.target.name || "")) { chosenByHand[event.target.name] = true; }
    });

    function follow() {
      var isClosing = status.value === closing;
      plan.hidden = !isClosing;
      plan.querySelectorAll("[data-resolves-to]").forEach(function (row) {
        var select = form.elements.namedItem("status_" + row.getAttribute("data-component"));
        if (!select || chosenByHand[select.name]) { return; }
        select.value = isClosing ? row.getAttribute("data-resolves-to") : initial(select);
      });
    }

    status.addEventListener("change", follow);
    follow();
  });
})();
