"""Reads for the Statuspage-compatible API: incidents and maintenance with whole timelines."""

from django.db.models import Prefetch, QuerySet

from incidents.models import Component, ComponentChange, Incident, IncidentUpdate

MAINTENANCE_UPCOMING = ("scheduled",)
MAINTENANCE_ACTIVE = ("in_progress", "verifying")


def _with_timelines(queryset: QuerySet[Incident]) -> QuerySet[Incident]:
    """Incidents with their updates (newest first), component changes and components loaded."""
    updates = IncidentUpdate.objects.timeline().prefetch_related(
        Prefetch(
            "component_changes",
            queryset=ComponentChange.objects.select_related("component__group").order_by(
                "component__position", "component__slug"
            ),
        )
    )
    return queryset.select_related("postmortem").prefetch_related(
        Prefetch("updates", queryset=updates),
        Prefetch(
            "components", queryset=Component.objects.select_related("group").order_by("position", "slug")
        ),
    )


def recent_incidents(*, limit: int = 50) -> QuerySet[Incident]:
    """The most recent published incidents of any status, newest first."""
    incidents = Incident.objects.published().incidents().order_by("-started_at", "-created_at", "-id")
    return _with_timelines(incidents)[:limit]


def unresolved_incidents() -> QuerySet[Incident]:
    """Published incidents not yet resolved, newest first."""
    incidents = Incident.objects.published().incidents().open().order_by("-started_at", "-created_at", "-id")
    return _with_timelines(incidents)


def recent_maintenances(*, limit: int = 50, statuses: tuple[str, ...] | None = None) -> QuerySet[Incident]:
    """Published scheduled maintenance, latest window first, optionally only in `statuses`."""
    maintenances = Incident.objects.published().maintenances()
    if statuses is not None:
        maintenances = maintenances.filter(status__in=statuses)
    maintenances = maintenances.order_by("-scheduled_for", "-created_at", "-id")
    return _with_timelines(maintenances)[:limit]
