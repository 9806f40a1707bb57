"""Postmortems and their action items, with due dates of a chosen precision."""

import datetime as dt
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from incidents.translation import TranslatedField, language_codes, pick

from .incidents import Incident


class PostmortemState(models.TextChoices):
    DRAFT = "draft", _("Draft")
    PUBLISHED = "published", _("Published")


# The named sections, in reading order.
SECTIONS = (
    ("summary", _("Summary")),
    ("customer_impact", _("Customer impact")),
    ("root_cause", _("Root cause")),
    ("detection_and_response", _("Detection and response")),
    ("what_we_changed", _("What we changed")),
    ("what_we_will_change", _("What we will change")),
)


class Postmortem(models.Model):
    incident = models.OneToOneField(Incident, on_delete=models.CASCADE, related_name="postmortem")
    state = models.CharField(
        _("State"), max_length=16, choices=PostmortemState.choices, default=PostmortemState.DRAFT
    )
    original_language = models.CharField(max_length=8, default="en")
    summary = TranslatedField()
    customer_impact = TranslatedField()
    root_cause = TranslatedField()
    detection_and_response = TranslatedField()
    what_we_changed = TranslatedField()
    what_we_will_change = TranslatedField()
    published_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"Postmortem of {self.incident}"

    @property
    def is_published(self) -> bool:
        return self.state == PostmortemState.PUBLISHED

    def sections_in(self, language: str):
        """(key, label, shown text) for each section that has text in some language."""
        for key, label in SECTIONS:
            shown = pick(getattr(self, key), language=language, original=self.original_language)
            if shown.text:
                yield key, label, shown

    def completeness(self) -> dict[str, bool]:
        """Whether each language has every section that the original language has."""
        written = [key for key, _label in SECTIONS if getattr(self, key).get(self.original_language)]
        return {
            code: bool(written) and all(getattr(self, key).get(code, "").strip() for key in written)
            for code in language_codes()
        }


class KeyFigureUnit(models.TextChoices):
    DURATION = "duration", _("Duration (seconds)")
    PERCENT = "percent", _("Percent")
    COUNT = "count", _("Count")
    BYTES = "bytes", _("Bytes")
    REQUESTS_PER_SECOND = "requests_per_second", _("Requests per second")


MAX_KEY_FIGURES = 20


class KeyFigure(models.Model):
    """A number that tells the story ("peak webhook delay: 23 min"), shown above the text."""

    postmortem = models.ForeignKey(Postmortem, on_delete=models.CASCADE, related_name="key_figures")
    position = models.PositiveIntegerField(default=0)
    label = TranslatedField()
    value = models.FloatField()
    unit = models.CharField(max_length=24, choices=KeyFigureUnit.choices)

    class Meta:
        ordering = ["postmortem", "position", "id"]

    def __str__(self) -> str:
        return f"{pick(self.label, language='en').text}: {self.value} {self.unit}"

    @property
    def original_language(self) -> str:
        return self.postmortem.original_language


class ActionItemState(models.TextChoices):
    OPEN = "open", _("Open")
    IN_PROGRESS = "in_progress", _("In progress")
    DONE = "done", _("Done")
    DROPPED = "dropped", _("Dropped")


class DuePrecision(models.TextChoices):
    DAY = "day", _("Day")
    MONTH = "month", _("Month")
    QUARTER = "quarter", _("Quarter")
    YEAR = "year", _("Year")


PERIOD_MONTHS = {DuePrecision.MONTH: 1, DuePrecision.QUARTER: 3, DuePrecision.YEAR: 12}


def due_period_end(due: dt.date, precision: str) -> dt.date:
    """The last day of the period a due date stands for."""
    if precision == DuePrecision.DAY:
        return due
    try:
        return due.replace(day=1) + relativedelta(months=PERIOD_MONTHS[precision], days=-1)
    except ValueError:  # a period ending with the calendar (stored before the bounds)
        return dt.date.max


def validate_due(due: dt.date, precision: str) -> None:
    """A due date is the first day of its period: 2026-11-01 for "November 2026"."""
    if precision == DuePrecision.MONTH and due.day != 1:
        raise ValidationError({"due_date": _("A month due date must be the first day of the month.")})
    if precision == DuePrecision.QUARTER and (due.day != 1 or due.month not in (1, 4, 7, 10)):
        raise ValidationError(
            {
                "due_date": _(
                    "A quarter due date must be the first day of a quarter (1 January, 1 April, 1 July or 1 October)."
                )
            }
        )
    if precision == DuePrecision.YEAR and (due.day != 1 or due.month != 1):
        raise ValidationError({"due_date": _("A year due date must be 1 January.")})


class ActionItem(models.Model):
    postmortem = models.ForeignKey(Postmortem, on_delete=models.CASCADE, related_name="action_items")
    title = TranslatedField(_("Title"))
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="action_items",
    )
    owner_name = models.CharField(
        _("Owner"), max_length=200, blank=True, help_text=_("A team or person without an account.")
    )
    state = models.CharField(
        _("State"), max_length=16, choices=ActionItemState.choices, default=ActionItemState.OPEN
    )
    due_date = models.DateField(_("Due"), null=True, blank=True)
    due_precision = models.CharField(max_length=8, choices=DuePrecision.choices, default=DuePrecision.DAY)
    completed_at = models.DateTimeField(null=True, blank=True)
    is_public = models.BooleanField(_("Public"), default=True)
    position = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["postmortem", "position", "id"]
        indexes = [models.Index(fields=["state", "due_date"])]

    def __str__(self) -> str:
        return pick(self.title, language="en", original=self.original_language).text

    @property
    def original_language(self) -> str:
        return self.postmortem.original_language

    @property
    def owner_label(self) -> str:
        if self.owner_id:
            return self.owner.get_full_name() or self.owner.get_username()
        return self.owner_name

    def clean(self) -> None:
        if self.due_date:
            validate_due(self.due_date, self.due_precision)

    @property
    def due_by(self) -> dt.date | None:
        """The last day on which the item is still on time."""
        return due_period_end(self.due_date, self.due_precision) if self.due_date else None

    def is_overdue(self, today: dt.date | None = None) -> bool:
        """Overdue from the day after its period ends, in the status page's time zone."""
        if self.state not in (ActionItemState.OPEN, ActionItemState.IN_PROGRESS) or not self.due_date:
            return False
        return (today or status_page_today()) > self.due_by


def status_page_today() -> dt.date:
    return timezone.now().astimezone(ZoneInfo(settings.STATUS_TIME_ZONE)).date()
