"""Importing a Statuspage export from the editor (admins): the same import as the API and
`manage.py import_statuspage`, in one transaction, so a refused document writes nothing."""

from django.contrib import messages
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import ngettext

from incidents.forms.statuspage_import import StatuspageImportForm
from incidents.services.statuspage_import import import_export
from incidents.services.statuspage_parsing import ImportRefused, parse_export

from .access import admin_required


@admin_required
def statuspage_import(request):
    form = StatuspageImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                result = import_export(
                    parse_export(form.cleaned_data["file"].read()), language=form.cleaned_data["language"]
                )
        except ImportRefused as error:
            form.add_error("file", str(error))
        else:
            messages.success(request, _summary(result))
            return redirect("editor:statuspage-import")
    return render(request, "editor/statuspage_import.html", {"form": form})


def _summary(result) -> str:
    return ngettext(
        "Imported %(incidents)s incident as a record (updates: %(updates)s; imported before and left as they are: %(skipped)s).",
        "Imported %(incidents)s incidents as records (updates: %(updates)s; imported before and left as they are: %(skipped)s).",
        result.incidents,
    ) % {"incidents": result.incidents, "updates": result.updates, "skipped": result.skipped}
