"""The one bound for every instant the platform accepts (docs/input-bounds.md).

Every instant lies on or after 1970-01-01 UTC. Instants of things that happened (an incident
started or resolved, an update shown, a postmortem published, a sample measured, a component
counted from) lie at most INSTANT_CLOCK_SKEW_SECONDS ahead of now; planned instants (maintenance
windows, due dates) at most PLANNED_HORIZON_DAYS ahead. Values outside would reach the pages,
where converting them to the status page's zone overflows.
"""

import datetime as dt
from collections.abc import Mapping

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

EARLIEST = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)

HAPPENED = "happened"
PLANNED = "planned"

# Fields of the models that hold instants a person or a system sends, by kind of bound. Fields
# not named here (bookkeeping the platform writes itself) get the loosest bound, PLANNED.
FIELD_KINDS: Mapping[tuple[str, str], str] = {
    ("incidents.incident", "started_at"): HAPPENED,
    ("incidents.incident", "monitoring_at"): HAPPENED,
    ("incidents.incident", "resolved_at"): HAPPENED,
    ("incidents.incident", "published_at"): HAPPENED,
    ("incidents.incident", "scheduled_for"): PLANNED,
    ("incidents.incident", "scheduled_until"): PLANNED,
    ("incidents.incidentupdate", "display_at"): HAPPENED,
    ("incidents.postmortem", "published_at"): HAPPENED,
    ("incidents.actionitem", "due_date"): PLANNED,
    ("incidents.actionitem", "completed_at"): HAPPENED,
    ("incidents.component", "start_date"): HAPPENED,
    ("incidents.sample", "at"): HAPPENED,
    ("incidents.statusperiod", "started_at"): HAPPENED,
    ("incidents.statusperiod", "ended_at"): HAPPENED,
}


def planned_horizon() -> dt.timedelta:
    return dt.timedelta(days=settings.PLANNED_HORIZON_DAYS)


def _as_instant(value: dt.datetime | dt.date) -> dt.datetime:
    """A date counts as its first moment in UTC; a naive time as UTC."""
    if not isinstance(value, dt.datetime):
        return dt.datetime.combine(value, dt.time.min, tzinfo=dt.UTC)
    return value if timezone.is_aware(value) else value.replace(tzinfo=dt.UTC)


def _check(value: dt.datetime | dt.date | None, *, latest: dt.datetime, too_late) -> None:
    if value is None:
        return
    instant = _as_instant(value)
    if instant < EARLIEST:
        raise ValidationError(_("Enter a time on or after 1 January 1970 (UTC)."), code="too_early")
    if instant > latest:
        raise ValidationError(too_late, code="too_late")


def check_any(value: dt.datetime | dt.date | None) -> None:
    """Any instant, for example a filter: from 1970 to the planning horizon."""
    _check(
        value,
        latest=timezone.now() + planned_horizon(),
        too_late=_("Enter a time at most %(years)s years ahead.") % {"years": _horizon_years()},
    )


def check_happened(value: dt.datetime | dt.date | None, *, now: dt.datetime | None = None) -> None:
    """Something that happened: from 1970 to a few minutes from now (clocks differ a little)."""
    _check(
        value,
        latest=(now or timezone.now()) + dt.timedelta(seconds=settings.INSTANT_CLOCK_SKEW_SECONDS),
        too_late=_("This cannot be dated in the future."),
    )


def check_planned(value: dt.datetime | dt.date | None, *, now: dt.datetime | None = None) -> None:
    """Something planned (a maintenance window, a due date): from 1970 to the planning horizon."""
    _check(
        value,
        latest=(now or timezone.now()) + planned_horizon(),
        too_late=_("Plan at most %(years)s years ahead.") % {"years": _horizon_years()},
    )


def check_within_window(value: dt.datetime, *, received_at: dt.datetime, window: dt.timedelta) -> None:
    """A live push: something that happened, and no older than the probe's window."""
    check_happened(value, now=received_at)
    if value < received_at - window:
        hours = round(window.total_seconds() / 3600)
        raise ValidationError(
            _("A sample cannot be more than %(hours)s hours old.") % {"hours": hours}, code="too_old"
        )


def _horizon_years() -> int:
    return max(1, round(settings.PLANNED_HORIZON_DAYS / 365.25))


def check_instants(
    *, happened: Mapping[str, object] | None = None, planned: Mapping[str, object] | None = None
) -> None:
    """Checks instants by field name, raising one ValidationError that names every field out of
    bounds; the services call it as the last guard before anything is stored."""
    errors = {}
    for check, values in ((check_happened, happened or {}), (check_planned, planned or {})):
        for field, value in values.items():
            if isinstance(value, dt.date):
                try:
                    check(value)
                except ValidationError as error:
                    errors[field] = error.messages
    if errors:
        raise ValidationError(errors)


def incident_start_kind(kind: str) -> str:
    """A maintenance window starts when it is planned to; any other incident's start happened."""
    return PLANNED if kind == "maintenance" else HAPPENED


def check_fields(instance, values: Mapping[str, object]) -> None:
    """check_instants for values of a model instance's fields, each by its kind in FIELD_KINDS."""
    label = instance._meta.label_lower
    kinds = {field: FIELD_KINDS.get((label, field), PLANNED) for field in values}
    if label == "incidents.incident" and "started_at" in kinds:
        kinds["started_at"] = incident_start_kind(instance.kind)
    check_instants(
        happened={field: value for field, value in values.items() if kinds[field] == HAPPENED},
        planned={field: value for field, value in values.items() if kinds[field] == PLANNED},
    )


def parse_instant(text: str) -> dt.datetime | None:
    """An ISO 8601 time with its zone, or None when it is not one a calendar can hold
    ("0000-01-01", year 10000, month 13)."""
    try:
        return parse_datetime(text)
    except ValueError:
        return None
