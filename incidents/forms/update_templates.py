"""The update template form, and what a chosen template puts into the declare and update forms."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from incidents.models import Component, IncidentKind, IncidentStatus, UpdateTemplate
from incidents.models.incidents import STATUSES_BY_KIND
from incidents.translation import language_codes

from .base import (
    UPDATE_TEXT_MAX,
    add_translated_fields,
    language_choices,
    translated_initial,
    translated_value,
)
from .incidents import ComponentStatusesMixin


class UpdateTemplateForm(ComponentStatusesMixin, forms.ModelForm):
    """Name, kind and status, a title and a text per language, and the components it marks."""

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = UpdateTemplate
        fields = ["name", "language", "kind", "status"]

    def __init__(self, *args, components, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.initial.update(translated_initial("title", self.instance.title))
            self.initial.update(translated_initial("body", self.instance.body))
            self.fields["version"].initial = self.instance.version
        self.fields["language"].widget = forms.Select(choices=language_choices())
        add_translated_fields(self, "title", _("Incident title"), required_language="")
        for code, language_name in language_choices():
            self.fields[f"body_{code}"] = forms.CharField(
                label=_("Text (%(language)s)") % {"language": language_name},
                max_length=UPDATE_TEXT_MAX,
                required=False,
                widget=forms.Textarea(attrs={"rows": 3, "data-markdown": "1"}),
            )
        marked = self.instance.component_statuses or {}
        self.add_component_fields(components, affected=[c for c in components if c.slug in marked])
        for slug, status in marked.items():
            if f"status_{slug}" in self.fields:
                self.fields[f"status_{slug}"].initial = status

    def translation_rows(self):
        """(title, text) bound fields per language, for the template."""
        for code in language_codes():
            yield self[f"title_{code}"], self[f"body_{code}"]

    def clean_language(self):
        code = self.cleaned_data["language"]
        if code not in language_codes():
            raise ValidationError(_("Choose one of the site's languages."))
        return code

    def clean(self):
        data = super().clean()
        kind, status = data.get("kind"), data.get("status")
        if kind and status and IncidentStatus(status) not in STATUSES_BY_KIND[IncidentKind(kind)]:
            self.add_error("status", _("This status does not belong to this kind of event."))
        language = data.get("language")
        if language and not data.get(f"body_{language}", "").strip():
            self.add_error(f"body_{language}", _("A template needs a text in the language it is written in."))
        return data

    def save(self, commit=True):
        template = super().save(commit=False)
        template.title = translated_value(self, "title")
        template.body = translated_value(self, "body")
        template.component_statuses = {c.slug: status for c, status in self.component_statuses().items()}
        if commit:
            template.save()
        return template


def template_data(template: UpdateTemplate) -> dict:
    """What the form script needs to fill a form from a template at once."""
    return {
        "id": template.pk,
        "language": template.language,
        "status": template.status,
        "title": template.title,
        "body": template.body,
        "components": template.component_statuses,
    }


def template_initial(
    template: UpdateTemplate, *, language: str, components: list[Component], statuses=None
) -> dict:
    """Initial values of a declare or update form filled from `template` (the no-script path).

    The text is taken in `language` when the template has it, else in the template's own language,
    which then becomes the form's language. A status the form does not offer is left out."""
    if not template.body.get(language):
        language = template.language
    initial = {"language": language, "body": template.body.get(language, "")}
    if template.title.get(language):
        initial["title"] = template.title[language]
    if template.status and (statuses is None or template.status in statuses):
        initial["status"] = template.status
    known = {c.slug for c in components}
    marked = {slug: status for slug, status in template.component_statuses.items() if slug in known}
    if marked:
        initial["affected"] = list(marked)
        initial.update({f"status_{slug}": status for slug, status in marked.items()})
    return initial
