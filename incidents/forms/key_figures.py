"""The key figures section of the postmortem editor: rows of label, value and unit."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from incidents.lifecycle.postmortems import MAX_LABEL, figure_problem
from incidents.models import MAX_KEY_FIGURES, KeyFigureUnit, Postmortem

EMPTY_ROWS = 3


class KeyFigureForm(forms.Form):
    """One figure; a row left empty is no figure."""

    label = forms.CharField(label=_("Label"), required=False, max_length=MAX_LABEL)
    value = forms.FloatField(
        label=_("Value"),
        required=False,
        help_text=_("Seconds for a duration, bytes for bytes, 99.2 for 99.2 %."),
    )
    unit = forms.ChoiceField(label=_("Unit"), required=False, choices=[("", "—"), *KeyFigureUnit.choices])

    def clean(self):
        data = super().clean()
        if not data.get("label", "").strip() and data.get("value") is None and not data.get("unit"):
            return data
        if problem := figure_problem(data):
            raise ValidationError(problem)
        return data

    def figure(self) -> dict | None:
        """{label, value, unit}, or None for an empty row."""
        return dict(self.cleaned_data) if self.cleaned_data.get("label", "").strip() else None


class BaseKeyFigureFormSet(forms.BaseFormSet):
    def figures(self) -> list[dict]:
        return [figure for form in self.forms if (figure := form.figure())]


KeyFigureFormSet = forms.formset_factory(
    KeyFigureForm,
    formset=BaseKeyFigureFormSet,
    extra=EMPTY_ROWS,
    max_num=MAX_KEY_FIGURES,
    validate_max=True,
    absolute_max=MAX_KEY_FIGURES + EMPTY_ROWS,
)


def key_figure_formset(postmortem: Postmortem | None, language: str, data=None) -> KeyFigureFormSet:
    """The figures with their labels in `language` (the original's while untranslated)."""
    initial = []
    if postmortem is not None:
        for figure in postmortem.key_figures.order_by("position", "id"):
            label = figure.label.get(language) or figure.label.get(postmortem.original_language, "")
            initial.append({"label": label, "value": figure.value, "unit": figure.unit})
    return KeyFigureFormSet(data, initial=initial, prefix="figures")
