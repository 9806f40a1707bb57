"""Uploading a Statuspage export in the editor."""

from django import forms
from django.utils.translation import gettext_lazy as _

from incidents.forms.base import language_choices
from incidents.translation import current_language

from .parsing import MAX_DOCUMENT_BYTES, read_export


class StatuspageImportForm(forms.Form):
    file = forms.FileField(
        label=_("Statuspage export"),
        help_text=_("incidents.json, summary.json or the manage API's incident objects (JSON)."),
    )
    language = forms.ChoiceField(
        label=_("Language of its texts"), choices=language_choices, initial=current_language
    )

    def clean_file(self) -> dict:
        """The export, checked (parsing.parse_export)."""
        return read_export(self.cleaned_data["file"].read(MAX_DOCUMENT_BYTES + 1))
