"""Reads for the Statuspage-compatible API: incidents and maintenance with whole timelines.

The incidents come as models (few, and their status reads the postmortem); what they hold comes
as rows, read once for every incident a document shows."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import QuerySet

from incidents.models import ComponentChange, Incident, IncidentUpdate

MAINTENANCE_UPCOMING = ("scheduled",)
MAINTENANCE_ACTIVE = ("in_progress", "verifying")


@dataclass(frozen=True)
class UpdateRow:
    pk: int
    public_id: str
    status: str
    body: dict
    original_language: str
    created_at: dt.datetime
    updated_at: dt.datetime
    display_at: dt.datetime
    deliver_notifications: bool
    # (component id, old status, new status), in page order
    changes: list[tuple[int, str, str]] = field(default_factory=list)


UPDATE_FIELDS = (
    "pk",
    "public_id",
    "status",
    "body",
    "original_language",
    "created_at",
    "updated_at",
    "display_at",
    "deliver_notifications",
)


@dataclass
class Timelines:
    """Of each incident: its updates that set a status, newest first; its components' ids in page order."""

    updates: dict[int, list[UpdateRow]]
    components: dict[int, list[int]]


def timelines(incidents: list[Incident]) -> Timelines:
    """The timelines of `incidents` in three queries, however many they are."""
    ids = [incident.pk for incident in incidents]
    updates: dict[int, list[UpdateRow]] = defaultdict(list)
    by_pk: dict[int, UpdateRow] = {}
    rows = IncidentUpdate.objects.filter(incident_id__in=ids).status_changes().timeline()
    for incident_id, *values in rows.values_list("incident_id", *UPDATE_FIELDS):
        row = UpdateRow(*values)
        updates[incident_id].append(row)
        by_pk[row.pk] = row
    changes = (
        ComponentChange.objects.filter(update_id__in=list(by_pk))
        .order_by("component__position", "component__slug", "pk")
        .values_list("update_id", "component_id", "old_status", "new_status")
    )
    for update_id, component_id, old_status, new_status in changes:
        by_pk[update_id].changes.append((component_id, old_status, new_status))
    components: dict[int, list[int]] = defaultdict(list)
    affected = (
        Incident.components.through.objects.filter(incident_id__in=ids)
        .order_by("component__position", "component__slug")
        .values_list("incident_id", "component_id")
    )
    for incident_id, component_id in affected:
        components[incident_id].append(component_id)
    return Timelines(updates=updates, components=components)


def _listed(queryset: QuerySet[Incident], limit: int | None) -> list[Incident]:
    return list(queryset.select_related("postmortem")[:limit])


def recent_incidents(*, limit: int = 50) -> list[Incident]:
    """The most recent published incidents of any status, newest first."""
    incidents = Incident.objects.published().incidents().order_by("-started_at", "-created_at", "-id")
    return _listed(incidents, limit)


def unresolved_incidents() -> list[Incident]:
    """Published incidents not yet resolved, newest first."""
    incidents = Incident.objects.published().incidents().open().order_by("-started_at", "-created_at", "-id")
    return _listed(incidents, None)


def recent_maintenances(*, limit: int | None = 50, statuses: tuple[str, ...] | None = None) -> list[Incident]:
    """Published scheduled maintenance, latest window first, optionally only in `statuses`."""
    maintenances = Incident.objects.published().maintenances()
    if statuses is not None:
        maintenances = maintenances.filter(status__in=statuses)
    maintenances = maintenances.order_by("-scheduled_for", "-created_at", "-id")
    return _listed(maintenances, limit)
