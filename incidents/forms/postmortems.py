"""Forms for postmortems and their action items, with the due-date shorthands (Q1 2027, 2027-03, 2027)."""

import datetime as dt
import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from incidents.lifecycle.commands import WritePostmortem
from incidents.models import SECTIONS, ActionItemState, DuePrecision
from incidents.roles import staff_users
from incidents.translation import pick
from incidents.validation.instants import check_happened, check_planned
from incidents.validation.texts import check_title

from .base import DATETIME_WIDGET, TITLE_MAX

SECTION_TEXT_MAX = 100_000


class PostmortemPublishForm(forms.Form):
    published_at = forms.DateTimeField(
        label=_("Published at"),
        required=False,
        widget=DATETIME_WIDGET,
        validators=[check_happened],
        help_text=_("Leave empty for now; set it for a postmortem published elsewhere before."),
    )
    publish_with_empty_sections = forms.BooleanField(
        label=_("Publish with the sections listed above still empty"), required=False
    )


# What each section asks of its writer, shown under its title.
SECTION_GUIDANCE = {
    "summary": _(
        "Two or three sentences a customer can read alone: what broke, for how long, and that it is fixed."
    ),
    "customer_impact": _(
        "Who was affected and how: which features, which regions, how many requests or customers, "
        "from when to when (with the time zone)."
    ),
    "root_cause": _(
        "Why it happened, down to the cause you can act on. Describe systems and decisions, not people."
    ),
    "detection_and_response": _(
        "How you found out (alert, customer, probe), how long that took, and the steps that restored service."
    ),
    "what_we_changed": _("What is already done so that this cannot happen again the same way."),
    "what_we_will_change": _(
        "What is still to do, with a date; list each as an action item below so it is tracked."
    ),
}


class PostmortemForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key, label in SECTIONS:
            self.fields[key] = forms.CharField(
                label=label,
                required=False,
                max_length=SECTION_TEXT_MAX,
                help_text=SECTION_GUIDANCE[key],
                widget=forms.Textarea(attrs={"rows": 6, "data-markdown": "1", "data-autogrow": "1"}),
            )

    def sections(self) -> dict[str, str]:
        return {key: self.cleaned_data.get(key, "") for key, _label in SECTIONS}

    def command(self, *, language: str) -> WritePostmortem:
        return WritePostmortem(
            language=language, sections=self.sections(), expected_version=self.cleaned_data["version"]
        )


# "Q1 2027", "2027-03" and "2027" stand for a quarter, a month and a year.
DUE_SHORTHANDS = (
    (re.compile(r"[Qq](?P<quarter>[1-4])\s*[-/ ]?\s*(?P<year>\d{4})"), DuePrecision.QUARTER),
    (re.compile(r"(?P<year>\d{4})\s*[-/ ]?\s*[Qq](?P<quarter>[1-4])"), DuePrecision.QUARTER),
    (re.compile(r"(?P<year>\d{4})-(?P<month>\d{1,2})"), DuePrecision.MONTH),
    (re.compile(r"(?P<year>\d{4})"), DuePrecision.YEAR),
)


def parse_due(text: str) -> tuple[dt.date, DuePrecision | None]:
    """A typed due date and the precision its shape implies (None for a full date)."""
    text = text.strip()
    try:
        return dt.date.fromisoformat(text), None
    except ValueError:
        pass
    for pattern, precision in DUE_SHORTHANDS:
        if match := pattern.fullmatch(text):
            parts = match.groupdict()
            month = 3 * int(parts["quarter"]) - 2 if "quarter" in parts else int(parts.get("month", 1))
            try:
                return dt.date(int(parts["year"]), month, 1), precision
            except ValueError:
                break
    raise ValidationError(
        _("Enter a date (2026-12-15), a month (2026-12), a quarter (Q1 2027) or a year (2027).")
    )


class OwnerChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return obj.get_full_name() or obj.get_username()


class ActionItemForm(forms.Form):
    title = forms.CharField(label=_("Action item"), max_length=TITLE_MAX, validators=[check_title])
    owner = OwnerChoiceField(
        label=_("Owner"), queryset=staff_users(), required=False, empty_label=_("— no account —")
    )
    owner_name = forms.CharField(label=_("or owner without an account"), max_length=200, required=False)
    due = forms.CharField(
        label=_("Due"),
        max_length=20,
        required=False,
        help_text=_("A date, a month, a quarter or a year: 2026-12-15, 2026-12, Q1 2027, 2027."),
        widget=forms.TextInput(attrs={"placeholder": "2026-12-15 · 2026-12 · Q1 2027 · 2027"}),
    )
    state = forms.ChoiceField(label=_("State"), choices=ActionItemState.choices, initial=ActionItemState.OPEN)
    is_public = forms.BooleanField(label=_("Public"), required=False, initial=True)

    def clean_due(self) -> str:
        """Parses the typed due date into `due_date` and `due_precision`."""
        text = self.cleaned_data["due"].strip()
        due, implied = parse_due(text) if text else (None, None)  # a shorthand: its period's first day
        if due is not None:
            check_planned(due)
        self.cleaned_data.update(due_date=due, due_precision=implied or DuePrecision.DAY)
        return text

    def clean(self):
        data = super().clean()
        if data.get("owner") and data.get("owner_name", "").strip():
            self.add_error("owner_name", _("Choose a user or type a name, not both."))
        return {"due_date": None, "due_precision": DuePrecision.DAY} | data


def initial_for_item(item, language: str) -> dict:
    due = ""
    if item.due_date:
        due = {
            DuePrecision.QUARTER: f"Q{(item.due_date.month - 1) // 3 + 1} {item.due_date.year}",
            DuePrecision.MONTH: f"{item.due_date:%Y-%m}",
            DuePrecision.YEAR: f"{item.due_date:%Y}",
        }.get(item.due_precision, item.due_date.isoformat())
    return {
        "title": item.title.get(language) or pick(item.title, language=language).text,
        "owner": item.owner_id,
        "owner_name": item.owner_name,
        "due": due,
        "state": item.state,
        "is_public": item.is_public,
    }
