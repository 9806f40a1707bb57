"""Which steps an incident may take: its statuses, closing and reopening."""

import datetime as dt

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import Incident, IncidentKind, IncidentStatus


class TransitionRefused(ValidationError):
    """The incident is not in a state this step can start from (409 in the API)."""


def check_status(incident: Incident, status: IncidentStatus | str) -> IncidentStatus:
    status = IncidentStatus(status)
    if status not in incident.allowed_statuses():
        raise ValidationError(
            {"status": _("%(status)s is not a status for this kind of event.") % {"status": status.label}}
        )
    return status


def check_transition(
    incident: Incident, status: IncidentStatus, *, display_at: dt.datetime, reopening: bool
) -> None:
    """A closed incident is closed once, and reopens only through `reopen_incident`.

    An open status that would not become the newest update (a backdated entry filling in the
    timeline) leaves the incident closed, so it is allowed."""
    newest = incident.updates.status_changes().timeline().first()
    is_closed = newest is not None and IncidentStatus(incident.status).is_closed
    if reopening:
        if not is_closed:
            raise TransitionRefused({"status": _("This is still open: there is nothing to reopen.")})
        return
    if not is_closed:
        if status.is_closed and newest is not None and display_at < newest.display_at:
            # Closing before the newest update would leave that update's open status in force.
            raise ValidationError({"display_at": _("It cannot be closed before its latest update.")})
        return
    if status.is_closed:
        if incident.kind == IncidentKind.MAINTENANCE:
            raise TransitionRefused({"status": _("This maintenance is already completed.")})
        raise TransitionRefused({"status": _("This incident is already resolved.")})
    if display_at >= newest.display_at:
        raise TransitionRefused({"status": _("This is closed: reopen it first, then post the update.")})
