"""Reads shared by the pages, feeds and both APIs."""

from dataclasses import dataclass, field

from django.db.models import F, Max, Prefetch, Window
from django.db.models.functions import RowNumber

from incidents.models import (
    Component,
    ComponentChange,
    ComponentGroup,
    ComponentStatus,
    Incident,
    IncidentUpdate,
    Metric,
    Sample,
)


@dataclass
class GroupView:
    group: ComponentGroup | None
    components: list[Component] = field(default_factory=list)

    @property
    def status(self) -> ComponentStatus:
        return ComponentStatus.worst(c.status for c in self.components)


def grouped_components() -> list[GroupView]:
    """Components in their groups, in page order, with their metrics loaded."""
    components = Component.objects.select_related("group").prefetch_related(
        Prefetch("metrics", queryset=Metric.objects.order_by("position", "slug"))
    )
    views: dict[int | None, GroupView] = {}
    for component in components:
        key = component.group_id
        if key not in views:
            views[key] = GroupView(component.group)
        views[key].components.append(component)
    return sorted(views.values(), key=lambda v: (v.group is None, v.group.position if v.group else 0))


def open_incidents():
    """Published incidents and maintenance in progress, newest first, with their timelines."""
    return (
        Incident.objects.published()
        .open()
        .exclude(status="scheduled")
        .prefetch_related(Prefetch("updates", queryset=IncidentUpdate.objects.timeline()), "components")
        .order_by("-started_at")
    )


def page_status(components: list[Component]) -> ComponentStatus:
    return ComponentStatus.worst(c.status for c in components)


# --- issue 7: reads for the Statuspage-compatible API ---

MAINTENANCE_UPCOMING = ("scheduled",)
MAINTENANCE_ACTIVE = ("in_progress", "verifying")


def _with_timelines(queryset):
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


def recent_incidents(*, limit: int = 50):
    """The most recent published incidents of any status, newest first."""
    incidents = Incident.objects.published().incidents().order_by("-started_at", "-created_at", "-id")
    return _with_timelines(incidents)[:limit]


def unresolved_incidents():
    """Published incidents not yet resolved, newest first."""
    incidents = Incident.objects.published().incidents().open().order_by("-started_at", "-created_at", "-id")
    return _with_timelines(incidents)


def recent_maintenances(*, limit: int = 50, statuses: tuple[str, ...] | None = None):
    """Published scheduled maintenance, latest window first, optionally only in `statuses`."""
    maintenances = Incident.objects.published().maintenances()
    if statuses is not None:
        maintenances = maintenances.filter(status__in=statuses)
    maintenances = maintenances.order_by("-scheduled_for", "-created_at", "-id")
    return _with_timelines(maintenances)[:limit]


def metric_window_values(metrics: list[Metric]) -> dict[int, list[float]]:
    """The values of each metric's last `window` successful samples (what its status looks at).

    One query for all metrics: samples are numbered newest first per metric, and the
    (metric, -at) index serves the partitions.
    """
    windows = {metric.pk: metric.window for metric in metrics}
    rows = (
        Sample.objects.filter(metric__in=windows, value__isnull=False)
        .annotate(rank=Window(RowNumber(), partition_by=[F("metric_id")], order_by=F("at").desc()))
        .filter(rank__lte=max(windows.values(), default=0))
        .values_list("metric_id", "rank", "value")
    )
    values: dict[int, list[float]] = {pk: [] for pk in windows}
    for metric_id, rank, value in rows:
        if rank <= windows[metric_id]:
            values[metric_id].append(value)
    return values


def page_updated_at():
    """When anything shown on the public page last changed."""
    candidates = [
        Component.objects.aggregate(at=Max("updated_at"))["at"],
        ComponentGroup.objects.aggregate(at=Max("updated_at"))["at"],
        Incident.objects.published().aggregate(at=Max("updated_at"))["at"],
        Metric.objects.aggregate(at=Max("latest_at"))["at"],
    ]
    return max((at for at in candidates if at is not None), default=None)
