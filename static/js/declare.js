// Declare and update forms: fill from a template at once, propose the impact from the worst
// component status, and show the default message for the chosen status.
// Every form works without this file (templates by ?template=<id>, impact proposed by the server).
(function () {
  "use strict";

  function readAids(form) {
    var element = document.getElementById(form.getAttribute("data-form-aids"));
    return element ? JSON.parse(element.textContent) : null;
  }

  function field(form, name) {
    return form.elements.namedItem(name);
  }

  function fire(element, type) {
    element.dispatchEvent(new Event(type, { bubbles: true }));
  }

  function checkedStatuses(form) {
    var statuses = [];
    form.querySelectorAll("input[name=affected]:checked").forEach(function (box) {
      var select = field(form, "status_" + box.value);
      if (select) { statuses.push(select.value); }
    });
    return statuses;
  }

  // The same rule as incidents.lifecycle.proposals.proposed_impact, from the data it serves.
  function proposedImpact(aids, statuses) {
    if (!statuses.length) { return aids.impactWithoutComponents; }
    var worst = 0;
    statuses.forEach(function (status) {
      worst = Math.max(worst, aids.impactOrder.indexOf(aids.impactForStatus[status]));
    });
    return aids.impactOrder[worst];
  }

  function updateProposal(form, aids) {
    var select = field(form, "impact");
    if (!select) { return; }
    var proposed = select.querySelector("option[value=proposed]");
    var impact = proposedImpact(aids, checkedStatuses(form));
    var label = select.querySelector('option[value="' + impact + '"]').textContent;
    proposed.textContent = form.getAttribute("data-proposed-label").replace("%(impact)s", label);
  }

  function updatePlaceholder(form, aids) {
    var body = field(form, "body");
    var status = field(form, "status");
    var language = field(form, "language");
    if (!body || !status || !language) { return; }
    var texts = aids.defaultTexts[language.value] || {};
    body.placeholder = texts[status.value] || "";
  }

  function setSelect(select, value) {
    if (select && value && select.querySelector('option[value="' + value + '"]')) {
      select.value = value;
      fire(select, "change");
    }
  }

  function fill(form, aids, template) {
    var language = field(form, "language");
    var code = template.body[language.value] ? language.value : template.language;
    setSelect(language, code);
    var title = field(form, "title");
    if (title && template.title[code]) { title.value = template.title[code]; fire(title, "input"); }
    var body = field(form, "body");
    body.value = template.body[code] || "";
    fire(body, "input");
    setSelect(field(form, "status"), template.status);
    Object.keys(template.components).forEach(function (slug) {
      var box = form.querySelector('input[name=affected][value="' + slug + '"]');
      if (!box) { return; }
      box.checked = true;
      fire(box, "change");
      var folded = box.closest("details");
      if (folded) { folded.open = true; }
      setSelect(field(form, "status_" + slug), template.components[slug]);
    });
  }

  function wirePicker(form, aids) {
    var picker = form.previousElementSibling;
    while (picker && !picker.classList.contains("template-picker")) { picker = picker.previousElementSibling; }
    if (!picker) { return; }
    var notice = picker.querySelector("[data-template-notice]");
    picker.querySelectorAll("a[data-template]").forEach(function (link) {
      link.addEventListener("click", function (event) {
        var id = Number(link.getAttribute("data-template"));
        var template = aids.templates.filter(function (t) { return t.id === id; })[0];
        if (!template) { return; }
        event.preventDefault();
        fill(form, aids, template);
        picker.querySelectorAll("a[aria-current]").forEach(function (a) { a.removeAttribute("aria-current"); });
        link.setAttribute("aria-current", "true");
        notice.textContent = picker.getAttribute("data-filled-notice").replace("%(name)s", link.textContent);
        (field(form, "title") || field(form, "body")).focus();
      });
    });
  }

  document.querySelectorAll("form[data-form-aids]").forEach(function (form) {
    var aids = readAids(form);
    if (!aids) { return; }
    form.addEventListener("change", function () {
      updateProposal(form, aids);
      updatePlaceholder(form, aids);
    });
    updateProposal(form, aids);
    updatePlaceholder(form, aids);
    wirePicker(form, aids);
  });
})();
