"""Scheduled maintenance starting and completing on time by itself (opening.py plans it)."""

import datetime as dt

from django.db.models import QuerySet
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from incidents.models import ComponentStatus, Incident, IncidentStatus, IncidentUpdate
from incidents.validation.concurrency import ConcurrentEdit

from .commands import PostUpdate
from .updates import post_update

AUTOMATION = "maintenance schedule"


def _automatic_text(incident: Incident, message: str) -> dict[str, str]:
    with translation.override(incident.original_language):
        return {incident.original_language: str(_(message))}


def start_maintenance(incident: Incident, *, now: dt.datetime | None = None) -> IncidentUpdate | None:
    """Opens the window: posts "in progress" and puts the components under maintenance.

    Returns None when the maintenance is no longer scheduled (another sweep got there first).
    """
    try:
        starting = PostUpdate(
            status=IncidentStatus.IN_PROGRESS,
            body=_automatic_text(incident, "The scheduled maintenance has started."),
            language=incident.original_language,
            component_statuses={c: ComponentStatus.UNDER_MAINTENANCE for c in incident.components.all()},
            display_at=now,
            expected_version=incident.version,
        )
        return post_update(incident, starting, actor=None)
    except ConcurrentEdit:
        return None


def complete_maintenance(incident: Incident, *, now: dt.datetime | None = None) -> IncidentUpdate | None:
    """Closes the window: posts "completed", and the resolve rule returns its components."""
    try:
        completing = PostUpdate(
            status=IncidentStatus.COMPLETED,
            body=_automatic_text(incident, "The scheduled maintenance has been completed."),
            language=incident.original_language,
            display_at=now,
            expected_version=incident.version,
        )
        return post_update(incident, completing, actor=None)
    except ConcurrentEdit:
        return None


def due_to_start(now: dt.datetime) -> QuerySet[Incident]:
    return (
        Incident.objects.maintenances()
        .published()
        .filter(status=IncidentStatus.SCHEDULED, scheduled_for__lte=now)
    )


def due_to_complete(now: dt.datetime) -> QuerySet[Incident]:
    return (
        Incident.objects.maintenances()
        .published()
        .filter(status__in=[IncidentStatus.IN_PROGRESS, IncidentStatus.VERIFYING], scheduled_until__lte=now)
    )


def advance_maintenance(*, now: dt.datetime | None = None) -> tuple[int, int]:
    """Starts and completes every window whose time has come; returns (started, completed)."""
    now = now or timezone.now()
    started = sum(1 for incident in due_to_start(now) if start_maintenance(incident, now=now))
    completed = sum(1 for incident in due_to_complete(now) if complete_maintenance(incident, now=now))
    return started, completed
