"""An incident's window: when it started and when it was resolved, as responders correct them."""

import datetime as dt

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import Incident, IncidentStatus
from incidents.validation.instants import check_fields


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


def set_window(
    incident: Incident, *, started_at: dt.datetime | None, resolved_at: dt.datetime | None
) -> None:
    """Moves the start or the resolution time, within the bounds of every instant; a resolution
    time needs a resolved incident and comes after the start."""
    if started_at is None and resolved_at is None:
        return
    check_fields(incident, {"started_at": started_at, "resolved_at": resolved_at})
    if resolved_at is not None and not IncidentStatus(incident.status).is_closed:
        raise ValidationError({"resolved_at": _("It is still open: resolve it to give a resolution time.")})
    start = started_at or incident.started_at
    end = resolved_at or incident.resolved_at
    if end is not None and end < start:
        field = "resolved_at" if resolved_at is not None else "started_at"
        raise ValidationError({field: _("The resolution cannot come before the start.")})
    incident.started_at = start
    incident.resolved_at = end
