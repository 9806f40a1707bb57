"""Reads of the public pages, reused by the APIs: each a fixed number of queries, whatever the
size of the history."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import F, Max, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.shortcuts import get_object_or_404
from django.utils import timezone

from incidents.metrics.indicator import Indicator, page_indicator
from incidents.models import (
    ActionItem,
    Component,
    ComponentChange,
    ComponentGroup,
    ComponentStatus,
    Incident,
    IncidentStatus,
    IncidentUpdate,
    KeyFigure,
    Metric,
    Postmortem,
)
from incidents.translation import Shown

from .history import attach_components, events_since, past_events_between, with_shown_components
from .metrics import live_metrics
from .precompiled import Precompiled


@dataclass
class GroupView:
    group: ComponentGroup | None
    components: list[Component] = field(default_factory=list)

    @property
    def status(self) -> ComponentStatus:
        return ComponentStatus.worst(c.status for c in self.components)


def _with_metrics() -> QuerySet[Component]:
    return Component.objects.select_related("group").prefetch_related(
        Prefetch("metrics", queryset=live_metrics())
    )


def grouped_components() -> list[GroupView]:
    """Components in their groups, in page order, with their metrics loaded."""
    views: dict[int | None, GroupView] = {}
    for component in _with_metrics():
        key = component.group_id
        if key not in views:
            views[key] = GroupView(component.group)
        views[key].components.append(component)
    return sorted(views.values(), key=lambda v: (v.group is None, v.group.position if v.group else 0))


@dataclass
class PageSummary:
    indicator: Indicator
    groups: list[GroupView]
    active_incidents: list[Incident]
    maintenance_in_progress: list[Incident]
    upcoming_maintenance: list[Incident]

    @property
    def components(self) -> list[Component]:
        return [c for g in self.groups for c in g.components]


def _newest_update_id() -> Subquery:
    """The id of the outer incident's newest update, as readers see the timeline."""
    return Subquery(IncidentUpdate.objects.filter(incident=OuterRef("pk")).timeline().values("pk")[:1])


def _open_events_with_latest_update_id() -> QuerySet[Incident]:
    # Unordered: sorting in the query led SQLite to walk every incident by start instead of
    # finding the few open ones through the (kind, status) index; open_events sorts them.
    return Incident.objects.published().open().order_by().annotate(latest_update_id=_newest_update_id())


def _newest_updates_of_open_events() -> QuerySet[IncidentUpdate]:
    # The ids as a subquery rather than a list of them: a query of one shape.
    return IncidentUpdate.objects.filter(
        pk__in=Incident.objects.published().open().values(newest=_newest_update_id())
    )


def _components_of_overview_events(since: dt.datetime, now: dt.datetime) -> QuerySet[Any]:
    """(incident, component) links of the open events and of those begun between the two times."""
    shown = Q(incident__in=_open_events_with_latest_update_id().values("pk")) | Q(
        incident__in=past_events_between(since, now).values("pk")
    )
    return (
        Incident.components.through.objects.filter(shown)
        .select_related("component")
        .only("incident_id", "component__slug", "component__name")
        .order_by("component__position", "component__slug")
    )


_open_events = Precompiled(_open_events_with_latest_update_id)
_latest_updates = Precompiled(_newest_updates_of_open_events)
_overview_event_links = Precompiled(_components_of_overview_events, times=("since", "now"))


def open_events(*, with_components: bool = True) -> list[Incident]:
    """Published open incidents and maintenance, newest first, with their components (unless the
    caller loads them with others') and, in `latest_updates`, their newest update (or none) read
    in one more query: an incident gathers an update every few minutes, and prefetching all of
    them on every render grew with its age."""
    events = sorted(_open_events(), key=lambda event: event.started_at, reverse=True)
    if with_components:
        with_shown_components(events)
    latest = {update.pk: update for update in _latest_updates()} if events else {}
    # An update posted between the two reads: the one the first read named, by its id.
    missing = [e.latest_update_id for e in events if e.latest_update_id and e.latest_update_id not in latest]
    if missing:
        latest.update(IncidentUpdate.objects.in_bulk(missing))
    for event in events:
        found = latest.get(event.latest_update_id)
        event.latest_updates = [found] if found else []
    return events


def current_indicator() -> Indicator:
    """The page indicator now, from every component's status (shown or not)."""
    return page_indicator(Component.objects.values_list("status", flat=True))


def page_summary() -> PageSummary:
    """What the overview (and Statuspage's summary.json) says: indicator, groups, open events."""
    groups = grouped_components()
    return _summary(groups, [c for g in groups for c in g.components])


def _summary(
    groups: list[GroupView], components: list[Component], events: list[Incident] | None = None
) -> PageSummary:
    events = open_events() if events is None else events
    active = [i for i in events if not i.is_maintenance]
    in_progress = [i for i in events if i.is_maintenance and i.status != IncidentStatus.SCHEDULED]
    upcoming = sorted(
        (i for i in events if i.is_maintenance and i.status == IncidentStatus.SCHEDULED),
        key=lambda i: i.scheduled_for or i.started_at,
    )
    for view in groups:
        view.components = [
            c
            for c in view.components
            if not (c.only_show_if_degraded and c.status == ComponentStatus.OPERATIONAL)
        ]
    return PageSummary(
        indicator=page_indicator(c.status for c in components),
        groups=[g for g in groups if g.components],
        active_incidents=active,
        maintenance_in_progress=in_progress,
        upcoming_maintenance=upcoming,
    )


# What the overview reads of a component and of a group: the rest stays in the database.
OVERVIEW_COMPONENT_FIELDS = (
    "pk",
    "slug",
    "name",
    "group_id",
    "status",
    "showcase",
    "only_show_if_degraded",
    "start_date",
    "updated_at",
)
OVERVIEW_GROUP_FIELDS = ("pk", "slug", "name", "position", "updated_at")


@dataclass
class OverviewSummary:
    """What the overview reads besides its components section."""

    summary: PageSummary
    past_events: list[Incident]  # begun since the overview's first past day, newest first


def overview_summary(*, past_since: dt.datetime) -> OverviewSummary:
    """`page_summary` and the events begun since `past_since` for the overview, in five queries:
    components with their groups and only the fields shown, without their metrics
    (overview_metrics), which a kept components section does not need; open events, their
    newest updates, past events, and the components of both in one query."""
    components = _overview_components()
    views: dict[int | None, GroupView] = {}
    for component in components:
        key = component.group_id
        if key not in views:
            views[key] = GroupView(component.group)
        views[key].components.append(component)
    now = timezone.now()
    events = open_events(with_components=False)
    past = events_since(past_since, now=now, with_components=False)
    links = _overview_event_links(since=past_since, now=now)
    attach_components([*events, *past], ((link.incident_id, link.component) for link in links))
    return OverviewSummary(_summary(list(views.values()), components, events), past)


def _components_in_page_order_with_groups() -> QuerySet[Component]:
    groups = (f"group__{name}" for name in OVERVIEW_GROUP_FIELDS if name != "pk")
    return (
        Component.objects.select_related("group")
        .only(*OVERVIEW_COMPONENT_FIELDS, *groups)
        .order_by(*PAGE_ORDER)
    )


_overview_components = Precompiled(_components_in_page_order_with_groups)


def overview_metrics(components: list[Component]) -> dict[int, list[Metric]]:
    """Each component's live metrics (probe and health loaded) by component id, in one query."""
    metrics: dict[int, list[Metric]] = defaultdict(list)
    for metric in live_metrics().filter(component_id__in=[c.pk for c in components]):
        metrics[metric.component_id].append(metric)
    return metrics


def public_incident(slug: str) -> Incident:
    """A published incident or maintenance with its timeline, changes and postmortem (or 404)."""
    queryset = (
        Incident.objects.published()
        .select_related("postmortem")
        .prefetch_related(
            Prefetch(
                "updates",
                queryset=IncidentUpdate.objects.timeline().prefetch_related(
                    Prefetch(
                        "component_changes", queryset=ComponentChange.objects.select_related("component")
                    )
                ),
            ),
            Prefetch("components", queryset=Component.objects.order_by("position", "slug")),
        )
    )
    return get_object_or_404(queryset, slug=slug)


@dataclass
class PostmortemView:
    postmortem: Postmortem
    sections: list[tuple[str, str, Shown]]
    action_items: list[ActionItem]
    key_figures: list[KeyFigure]

    @property
    def language(self) -> str:
        """The language of the text shown, which its dates are written in too."""
        return self.sections[0][2].language if self.sections else self.postmortem.original_language


def postmortem_for(incident: Incident, language: str) -> PostmortemView | None:
    """The published postmortem of an incident in `language` with its public action items."""
    try:
        postmortem = incident.postmortem
    except Postmortem.DoesNotExist:
        return None
    if not postmortem.is_published:
        return None
    items = list(
        postmortem.action_items.filter(is_public=True).select_related("owner").order_by("position", "id")
    )
    figures = list(postmortem.key_figures.order_by("position", "id"))
    loaded: list[ActionItem | KeyFigure] = [*items, *figures]
    for item in loaded:
        item.postmortem = postmortem
    return PostmortemView(postmortem, list(postmortem.sections_in(language)), items, figures)


def related_incidents(incident: Incident) -> list[Incident]:
    """The published incidents linked to this one, newest first."""
    return list(incident.related.published().order_by("-started_at", "-id"))


def public_component(slug: str) -> Component:
    return get_object_or_404(_with_metrics(), slug=slug)


def component_incidents(component: Component, *, limit: int = 20) -> list[Incident]:
    """The component's newest published incidents and maintenance."""
    return list(Incident.objects.published().filter(components=component).order_by("-started_at")[:limit])


# Components in page order: groups in order, each one together, then those in no group.
PAGE_ORDER = (F("group__position").asc(nulls_last=True), "group__slug", "position", "slug")


def component_choices() -> list[Component]:
    """Every component in page order, with only what filters and tables show."""
    return list(
        Component.objects.only("pk", "slug", "name", "start_date", "uptime_target").order_by(*PAGE_ORDER)
    )


def page_updated_at() -> dt.datetime | None:
    """When anything shown on the public page last changed."""
    candidates = [
        Component.objects.aggregate(at=Max("updated_at"))["at"],
        ComponentGroup.objects.aggregate(at=Max("updated_at"))["at"],
        Incident.objects.published().aggregate(at=Max("updated_at"))["at"],
        Metric.objects.aggregate(at=Max("latest_at"))["at"],
    ]
    return max((at for at in candidates if at is not None), default=None)
