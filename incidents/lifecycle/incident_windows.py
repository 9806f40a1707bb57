"""An incident's window: when it started and when it was resolved, as responders correct them,
and the times it bounds (a record's start, a resolution, a note before the incident).

A published incident's history is read by its subscribers and counted in the uptime bars:
moving its start or its end by more than FREE_MOVE takes an admin, or a reason that the audit
trail keeps beside the move.
"""

import datetime as dt
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import Incident, IncidentKind, IncidentStatus
from incidents.roles import can_administer
from incidents.validation.instants import check_fields

# A correction of a clock or a typed hour; more than this rewrites what the page has shown.
FREE_MOVE = dt.timedelta(days=1)
MOVE_REASON_MAX = 500


# An outage of the last hour is news: entered as a record, it would reach no subscriber.
RECORD_MIN_AGE = dt.timedelta(hours=1)


def check_record_age(started_at: dt.datetime | None, *, now: dt.datetime) -> None:
    """A record of the past starts more than RECORD_MIN_AGE ago."""
    if started_at is None or started_at > now - RECORD_MIN_AGE:
        raise ValidationError(
            {
                "started_at": _(
                    "A record of the past must have started more than an hour ago: declare a "
                    "recent outage as an incident, so its subscribers hear of it."
                )
            }
        )


def check_shown_time(incident: Incident, status: IncidentStatus | None, *, display_at: dt.datetime) -> None:
    """An incident is not resolved before it started, and a note (a context event) lies at most
    CONTEXT_NOTE_LEAD_DAYS before its start."""
    if status is not None and status.is_closed and incident.kind == IncidentKind.INCIDENT:
        if display_at < incident.started_at:
            raise ValidationError({"display_at": _("The resolution cannot come before the start.")})
    lead = dt.timedelta(days=settings.CONTEXT_NOTE_LEAD_DAYS)
    if status is None and display_at < incident.started_at - lead:
        raise ValidationError(
            {
                "display_at": _("A note can be shown at most %(days)s days before the incident started.")
                % {"days": settings.CONTEXT_NOTE_LEAD_DAYS}
            }
        )


def edited_fields(incident: Incident, *, with_window: bool) -> dict[str, Any]:
    """What an edit may change, for the audit; the window only when it was edited."""
    fields = {
        "title": incident.title,
        "impact": incident.impact,
        "display_time_zone": incident.display_time_zone,
    }
    if with_window:
        fields["started_at"] = incident.started_at.isoformat()
        fields["resolved_at"] = incident.resolved_at.isoformat() if incident.resolved_at else None
    return fields


def _moves_far(stored: dt.datetime | None, new: dt.datetime | None) -> bool:
    return stored is not None and new is not None and abs(new - stored) > FREE_MOVE


def check_move(
    incident: Incident,
    *,
    started_at: dt.datetime | None,
    resolved_at: dt.datetime | None,
    actor: User | None,
    reason: str,
) -> None:
    """Refuses to move a published incident's start or end by more than FREE_MOVE without the
    admin role or a reason."""
    if incident.published_at is None or can_administer(actor) or reason.strip():
        return
    if _moves_far(incident.started_at, started_at) or _moves_far(incident.resolved_at, resolved_at):
        raise ValidationError(
            {"reason": _("Moving a published incident's start or end by more than a day needs a reason.")}
        )


def set_window(
    incident: Incident,
    *,
    started_at: dt.datetime | None,
    resolved_at: dt.datetime | None,
    actor: User | None,
    reason: str = "",
) -> None:
    """Moves the start or the resolution time, within the bounds of every instant; a resolution
    time needs a resolved incident and comes after the start, and a far move of a published
    incident an admin or a reason."""
    if started_at is None and resolved_at is None:
        return
    check_fields(incident, {"started_at": started_at, "resolved_at": resolved_at})
    check_move(incident, started_at=started_at, resolved_at=resolved_at, actor=actor, reason=reason)
    if resolved_at is not None and not IncidentStatus(incident.status).is_closed:
        raise ValidationError({"resolved_at": _("It is still open: resolve it to give a resolution time.")})
    start = started_at or incident.started_at
    end = resolved_at or incident.resolved_at
    if end is not None and end < start:
        field = "resolved_at" if resolved_at is not None else "started_at"
        raise ValidationError({field: _("The resolution cannot come before the start.")})
    incident.started_at = start
    incident.resolved_at = end
