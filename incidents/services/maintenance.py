"""Scheduled maintenance: planning a window, and starting and completing it on time by itself."""

import datetime as dt
from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from incidents.models import (
    Component,
    ComponentStatus,
    Impact,
    Incident,
    IncidentKind,
    IncidentStatus,
    IncidentUpdate,
)

from .incidents import ConcurrentEdit, declare_incident, post_update, publish_incident

AUTOMATION = "maintenance schedule"


@transaction.atomic
def schedule_maintenance(
    *,
    title: str,
    language: str,
    body: str,
    components: Iterable[Component],
    scheduled_for: dt.datetime,
    scheduled_until: dt.datetime,
    actor: AbstractBaseUser | None,
    impact: Impact | str = Impact.NONE,
    publish: bool = True,
) -> Incident:
    """Plans a maintenance window; its components change only when the window starts."""
    components = list(components)
    # Declared as a draft first so the announcement does not touch component statuses: the
    # components are attached, and `start_maintenance` moves them when the window opens.
    incident = declare_incident(
        title=title,
        language=language,
        body=body,
        impact=impact,
        component_statuses={component: component.status for component in components},
        actor=actor,
        kind=IncidentKind.MAINTENANCE,
        scheduled_for=scheduled_for,
        scheduled_until=scheduled_until,
        publish=False,
    )
    if publish:
        incident = publish_incident(incident, actor=actor)
    return incident


def _automatic_text(incident: Incident, message: str) -> dict[str, str]:
    with translation.override(incident.original_language):
        return {incident.original_language: str(_(message))}


def start_maintenance(incident: Incident, *, now: dt.datetime | None = None) -> IncidentUpdate | None:
    """Opens the window: posts "in progress" and puts the components under maintenance.

    Returns None when the maintenance is no longer scheduled (another sweep got there first).
    """
    try:
        return post_update(
            incident,
            status=IncidentStatus.IN_PROGRESS,
            body=_automatic_text(incident, "The scheduled maintenance has started."),
            language=incident.original_language,
            component_statuses={c: ComponentStatus.UNDER_MAINTENANCE for c in incident.components.all()},
            display_at=now,
            actor=None,
            expected_version=incident.version,
        )
    except ConcurrentEdit:
        return None


def complete_maintenance(incident: Incident, *, now: dt.datetime | None = None) -> IncidentUpdate | None:
    """Closes the window: posts "completed", and the resolve rule returns its components."""
    try:
        return post_update(
            incident,
            status=IncidentStatus.COMPLETED,
            body=_automatic_text(incident, "The scheduled maintenance has been completed."),
            language=incident.original_language,
            display_at=now,
            actor=None,
            expected_version=incident.version,
        )
    except ConcurrentEdit:
        return None


def due_to_start(now: dt.datetime):
    return (
        Incident.objects.maintenances()
        .published()
        .filter(status=IncidentStatus.SCHEDULED, scheduled_for__lte=now)
    )


def due_to_complete(now: dt.datetime):
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
