"""Uploading a Statuspage export in the editor."""

from django import forms
from django.utils.translation import gettext_lazy as _

from incidents.services.statuspage_parsing import MAX_DOCUMENT_BYTES
from incidents.translation import current_language

from .base import language_choices


class StatuspageImportForm(forms.Form):
    file = forms.FileField(
        label=_("Statuspage export"),
        help_text=_("incidents.json, summary.json or the manage API's incident objects (JSON)."),
    )
    language = forms.ChoiceField(
        label=_("Language of its texts"), choices=language_choices, initial=current_language
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_DOCUMENT_BYTES:
            raise forms.ValidationError(_("The document is too large."))
        return upload
