"""Reads shared by the pages, feeds and both APIs."""

from dataclasses import dataclass, field

from django.db.models import Prefetch

from incidents.models import Component, ComponentGroup, ComponentStatus, Incident, IncidentUpdate, Metric


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
