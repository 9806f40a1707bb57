// Postmortem editing: text areas grow with their text, and what is typed is kept in this
// browser (localStorage, per postmortem and language) until it is saved, so a reload or a
// crashed tab loses nothing. The page works without this file; it then only saves on submit.
(function () {
  "use strict";

  function grow(area) {
    area.style.height = "auto";
    area.style.height = area.scrollHeight + 2 + "px";
  }

  document.querySelectorAll("textarea[data-autogrow]").forEach(function (area) {
    area.addEventListener("input", function () { grow(area); });
    grow(area);
  });

  var form = document.querySelector("form[data-draft-key]");
  if (!form) { return; }
  var key = form.getAttribute("data-draft-key");
  var notice = document.getElementById("draft-notice");
  var areas = Array.prototype.slice.call(form.querySelectorAll("textarea"));
  var version = form.elements.namedItem("version");
  var saved = {};  // what the server sent, to go back to on "discard"
  areas.forEach(function (area) { saved[area.name] = area.value; });
  var savedVersion = version ? version.value : "";
  var quiet = false;  // true while restoring or after saving: nothing new was typed

  function storage() {
    try { return window.localStorage; } catch (error) { return null; }
  }

  function read() {
    var store = storage();
    try { return store ? JSON.parse(store.getItem(key) || "null") : null; } catch (error) { return null; }
  }

  function write() {
    var store = storage();
    if (!store || quiet) { return; }
    var fields = {};
    var changed = false;
    areas.forEach(function (area) {
      fields[area.name] = area.value;
      if (area.value !== saved[area.name]) { changed = true; }
    });
    if (!changed) { store.removeItem(key); return; }
    try {
      store.setItem(key, JSON.stringify({ savedAt: new Date().toISOString(), version: savedVersion, fields: fields }));
    } catch (error) { /* storage full or disabled: the form still saves on submit */ }
  }

  function clock(iso) {
    var when = new Date(iso);
    var language = document.documentElement.lang || undefined;
    return when.toLocaleTimeString(language, { hour: "2-digit", minute: "2-digit" });
  }

  function restore(draft) {
    var differs = areas.some(function (area) {
      return typeof draft.fields[area.name] === "string" && draft.fields[area.name] !== area.value;
    });
    if (!differs) { return; }
    quiet = true;
    areas.forEach(function (area) {
      if (typeof draft.fields[area.name] === "string") {
        area.value = draft.fields[area.name];
        area.dispatchEvent(new Event("input", { bubbles: true }));  // grows it, renders its preview
      }
    });
    quiet = false;
    // The draft was typed over the version it was loaded with: saving it over a newer one
    // gives the conflict page instead of a silent overwrite.
    if (version && draft.version !== undefined) { version.value = draft.version; }
    notice.querySelector("[data-draft-text]").textContent =
      form.getAttribute("data-draft-restored").replace("%(time)s", clock(draft.savedAt));
    notice.hidden = false;
  }

  var draft = read();
  if (draft && draft.fields) { restore(draft); }

  var timer = null;
  form.addEventListener("input", function () {
    if (quiet) { return; }
    clearTimeout(timer);
    timer = setTimeout(write, 300);
  });
  window.addEventListener("pagehide", write);

  document.getElementById("discard-draft").addEventListener("click", function () {
    var store = storage();
    if (store) { store.removeItem(key); }
    areas.forEach(function (area) {
      area.value = saved[area.name];
      grow(area);
    });
    if (version) { version.value = savedVersion; }
    notice.hidden = true;
  });

  form.addEventListener("submit", function (event) {
    // Saving hands the text to the server; the no-script preview button keeps the draft.
    if (!event.submitter || event.submitter.id === "save-postmortem") {
      clearTimeout(timer);
      quiet = true;
      var store = storage();
      if (store) { store.removeItem(key); }
    }
  });
})();
