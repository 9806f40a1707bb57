"""The history page's filters, each checked on its own: a bad value is reported next to its
field and ignored, so a mistyped link still shows history instead of an error page."""

import datetime as dt
import re
from dataclasses import dataclass

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from incidents.models import Component, Impact, IncidentKind
from incidents.validation.instants import check_any

MONTH = re.compile(r"([0-9]{4})-([0-9]{2})")
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
SLUG = re.compile(r"[-a-zA-Z0-9_]{1,100}")
# The impact filter: an incident's impact, or maintenance (which has none of its own).
IMPACT_VALUES = [*Impact.values, IncidentKind.MAINTENANCE.value]


def impact_choices() -> list[tuple[str, str]]:
    return [
        ("", _("Any impact")),
        *((value, label) for value, label in Impact.choices),
        (IncidentKind.MAINTENANCE.value, _("Maintenance")),
    ]


def parse_month(value: str) -> dt.date | None:
    """The first day of a `YYYY-MM` month, or None when `value` is not one."""
    found = MONTH.fullmatch(value)
    if not found:
        return None
    year, month = int(found[1]), int(found[2])
    return dt.date(year, month, 1) if 1 <= month <= 12 and year >= 1 else None


def parse_day(value: str) -> dt.date | None:
    if not DAY.fullmatch(value):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def day_out_of_bounds(day: dt.date) -> str:
    """Why a history bound cannot be used (not a day every zone can convert), or "" when it can."""
    try:
        check_any(day)
    except ValidationError as error:
        return " ".join(error.messages)
    return ""


def normalised_query(params) -> str | None:
    """The filters as one canonical query string, judged by shape alone (no database), or None
    when a value is malformed. The page cache keys history pages by it."""
    shapes = {"component": SLUG.fullmatch, "impact": IMPACT_VALUES.__contains__, "month": parse_month}
    if not params.get("month", ""):  # a month replaces the date range (see HistoryFilters)
        shapes = {**shapes, "from": parse_day, "to": parse_day}
    parts = []
    for name, shape in shapes.items():
        value = params.get(name, "")
        if value:
            if not shape(value):
                return None
            parts.append(f"{name}={value}")
    return "&".join(parts)


@dataclass(frozen=True)
class HistoryFilters:
    """The filters that passed, as the history selector takes them."""

    component: Component | None = None
    impact: str = ""
    month: dt.date | None = None
    since: dt.date | None = None  # first day shown
    until: dt.date | None = None  # last day shown

    @property
    def query(self) -> dict[str, str]:
        """The valid filters as query parameters (pagination and month links keep them)."""
        found = {
            "component": self.component.slug if self.component else "",
            "impact": self.impact,
            "month": f"{self.month:%Y-%m}" if self.month else "",
            "from": self.since.isoformat() if self.since and not self.month else "",
            "to": self.until.isoformat() if self.until and not self.month else "",
        }
        return {name: value for name, value in found.items() if value}


class HistoryFilterForm(forms.Form):
    """Bound to request.GET; `months` is the first and last month with history, or None."""

    component = forms.CharField(required=False, label=_("Component"))
    impact = forms.CharField(required=False, label=_("Impact"))
    month = forms.CharField(required=False, label=_("Month"))

    def __init__(self, data, *, components: list[Component], months: tuple[dt.date, dt.date] | None):
        super().__init__(data)
        self.components = {c.slug: c for c in components}
        self.months = months
        # `from` is a Python keyword: these two are added by name.
        self.fields["from"] = forms.CharField(required=False, label=_("From"))
        self.fields["to"] = forms.CharField(required=False, label=_("To"))
        self.order_fields(["component", "impact", "from", "to", "month"])

    def clean_component(self) -> Component | None:
        slug = self.cleaned_data["component"]
        if not slug:
            return None
        if slug not in self.components:
            raise forms.ValidationError(_("There is no component by that name; showing every component."))
        return self.components[slug]

    def clean_impact(self) -> str:
        impact = self.cleaned_data["impact"]
        if impact and impact not in IMPACT_VALUES:
            raise forms.ValidationError(_("Choose an impact from the list; showing every impact."))
        return impact

    def clean_month(self) -> dt.date | None:
        text = self.cleaned_data["month"]
        if not text:
            return None
        month = parse_month(text)
        if month is None:
            raise forms.ValidationError(_("Give a month as YYYY-MM; showing all months."))
        if self.months is None or not self.months[0] <= month <= self.months[1]:
            raise forms.ValidationError(_("There is no history for that month; showing all months."))
        return month

    def clean(self):
        cleaned = super().clean()
        for name in ("from", "to"):
            text = cleaned.get(name, "")
            if not text:
                cleaned[name] = None
            elif (day := parse_day(text)) is None:
                self.add_error(name, _("Give a date as YYYY-MM-DD; the date is ignored."))
            elif reason := day_out_of_bounds(day):
                self.add_error(name, [reason, _("The date is ignored.")])
            else:
                cleaned[name] = day
        since, until = cleaned.get("from"), cleaned.get("to")
        if since and until and until < since:
            self.add_error("to", _("The end date is before the start date; the end date is ignored."))
        return cleaned

    def filters(self) -> HistoryFilters:
        """The filters that passed; each one that did not is left out."""
        self.is_valid()
        cleaned = self.cleaned_data
        month = cleaned.get("month")
        return HistoryFilters(
            component=cleaned.get("component"),
            impact=cleaned.get("impact", ""),
            month=month,
            since=None if month else cleaned.get("from"),
            until=None if month else cleaned.get("to"),
        )
