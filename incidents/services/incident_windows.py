"""An incident's window: when it started and when it was resolved, as responders correct them.

A published incident's history is read by its subscribers and counted in the uptime bars:
moving its start or its end by more than FREE_MOVE takes an admin, or a reason that the audit
trail keeps beside the move.
"""

import datetime as dt

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import Incident, IncidentStatus
from incidents.roles import can_administer
from incidents.validation.instants import check_fields

# A correction of a clock or a typed hour; more than this rewrites what the page has shown.
FREE_MOVE = dt.timedelta(days=1)
MOVE_REASON_MAX = 500


def edited_fields(incident: Incident, *, with_window: bool) -> dict:
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
    actor: AbstractBaseUser | None,
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
    actor: AbstractBaseUser | None,
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
