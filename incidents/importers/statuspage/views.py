"""Importing a Statuspage export from the editor (admins): the same import as the API and
`manage.py import_statuspage`, in one transaction, so a refused document writes nothing."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import ngettext

from incidents.views.editor.access import admin_required

from .forms import StatuspageImportForm
from .service import ImportResult, import_upload


@admin_required
def statuspage_import(request):
    form = StatuspageImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            result = import_upload(form.cleaned_data["file"], language=form.cleaned_data["language"])
        except ValidationError as error:
            form.add_error("file", error)
        else:
            messages.success(request, _summary(result))
            return redirect("editor:statuspage-import")
    return render(request, "importers/statuspage.html", {"form": form})


def _summary(result: ImportResult) -> str:
    return ngettext(
        "Imported %(incidents)s incident as a record (updates: %(updates)s; imported before and left as they are: %(skipped)s).",
        "Imported %(incidents)s incidents as records (updates: %(updates)s; imported before and left as they are: %(skipped)s).",
        result.incidents,
    ) % {"incidents": result.incidents, "updates": result.updates, "skipped": result.skipped}
