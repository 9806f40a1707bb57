"""Scheduled maintenance starting and completing on time by itself (opening.py plans it)."""

import datetime as dt

from django.utils import timezone, translation
from django.utils.translation import gettext as _

from incidents.models import ComponentStatus, Incident, IncidentStatus, IncidentUpdate
from incidents.validation.concurrency import ConcurrentEdit

from .commands import ComponentStatuses, PostUpdate
from .updates import post_update


def start_maintenance(incident: Incident, *, now: dt.datetime | None = None) -> IncidentUpdate | None:
    """Opens the window: posts "in progress" and puts the components under maintenance."""
    under = dict.fromkeys(incident.components.all(), ComponentStatus.UNDER_MAINTENANCE)
    message = "The scheduled maintenance has started."
    return _post_on_time(incident, IncidentStatus.IN_PROGRESS, message, now=now, component_statuses=under)


def complete_maintenance(incident: Incident, *, now: dt.datetime | None = None) -> IncidentUpdate | None:
    """Closes the window: posts "completed", and the resolve rule returns its components."""
    message = "The scheduled maintenance has been completed."
    return _post_on_time(incident, IncidentStatus.COMPLETED, message, now=now)


def _post_on_time(
    incident: Incident,
    status: IncidentStatus,
    message: str,
    *,
    now: dt.datetime | None,
    component_statuses: ComponentStatuses | None = None,
) -> IncidentUpdate | None:
    """The automatic update; None when another sweep moved the maintenance first."""
    with translation.override(incident.original_language):
        body = {incident.original_language: str(_(message))}
    posting = PostUpdate(
        status=status,
        body=body,
        language=incident.original_language,
        component_statuses=component_statuses or {},
        display_at=now,
        expected_version=incident.version,
    )
    try:
        return post_update(incident, posting, actor=None)
    except ConcurrentEdit:
        return None


def advance_maintenance(*, now: dt.datetime | None = None) -> tuple[int, int]:
    """Starts and completes every window whose time has come; returns (started, completed)."""
    now = now or timezone.now()
    windows = Incident.objects.maintenances().published()
    due_to_start = windows.filter(status=IncidentStatus.SCHEDULED, scheduled_for__lte=now)
    due_to_complete = windows.filter(
        status__in=[IncidentStatus.IN_PROGRESS, IncidentStatus.VERIFYING], scheduled_until__lte=now
    )
    started = sum(1 for incident in due_to_start if start_maintenance(incident, now=now))
    completed = sum(1 for incident in due_to_complete if complete_maintenance(incident, now=now))
    return started, completed
