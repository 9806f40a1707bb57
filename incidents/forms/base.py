"""What the editor's forms share: text limits, the date-time widget, languages and translated fields."""

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.text import capfirst

from incidents.models import Component
from incidents.translation import current_language, language_codes, pick

TITLE_MAX = 200
UPDATE_TEXT_MAX = 20_000

DATETIME_WIDGET = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def label(model: type[models.Model], name: str):
    """A form field's label: its model field's `verbose_name`, the one place field labels are written."""
    return capfirst(model._meta.get_field(name).verbose_name)


def language_choices():
    return list(settings.LANGUAGES)


def component_label(component: Component) -> str:
    return pick(component.name, language=current_language()).text or component.slug


def add_translated_fields(form: forms.Form, name: str, label, *, required_language: str = "en", widget=None):
    for code, language_name in settings.LANGUAGES:
        form.fields[f"{name}_{code}"] = forms.CharField(
            label=f"{label} ({language_name})",
            max_length=TITLE_MAX if widget is None else 5000,
            required=code == required_language,
            widget=widget,
        )


def translated_value(form: forms.Form, name: str) -> dict[str, str]:
    return {
        code: form.cleaned_data[f"{name}_{code}"].strip()
        for code in language_codes()
        if form.cleaned_data.get(f"{name}_{code}", "").strip()
    }


def translated_initial(name: str, texts: dict[str, str]) -> dict[str, str]:
    return {f"{name}_{code}": text for code, text in (texts or {}).items()}


def apply_errors(form, error: ValidationError, *, renamed: dict[str, str] | None = None) -> None:
    """Puts a service's validation error on the form field it names (`renamed` maps a model field to
    the form's), or on the form."""
    if hasattr(error, "error_dict"):
        for name, errors in error.error_dict.items():
            field = (renamed or {}).get(name, name)
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)
