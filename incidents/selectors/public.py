"""Reads shared by the pages, feeds and both APIs."""

import datetime as dt
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from zoneinfo import ZoneInfo

from django.core.paginator import Page, Paginator
from django.db.models import Exists, F, Max, OuterRef, Prefetch, Q, TextField, Window
from django.db.models.functions import Cast, RowNumber
from django.shortcuts import get_object_or_404
from django.utils import timezone

from incidents.formatting import status_zone
from incidents.indicator import Indicator, page_indicator
from incidents.kept import kept
from incidents.models import (
    ActionItem,
    Aggregation,
    Component,
    ComponentChange,
    ComponentGroup,
    ComponentStatus,
    ComponentTimelineEntry,
    Incident,
    IncidentKind,
    IncidentStatus,
    IncidentUpdate,
    Metric,
    Postmortem,
    Resolution,
    Rollup,
    Sample,
    StatusPeriod,
    UptimeMonth,
)
from incidents.models.incidents import STATUSES_BY_KIND
from incidents.translation import Shown
from incidents.uptime import (
    MonthGrid,
    Period,
    Span,
    day_starts,
    month_spans,
    month_starts,
    observed_from,
    spans,
)


@dataclass
class GroupView:
    group: ComponentGroup | None
    components: list[Component] = field(default_factory=list)

    @property
    def status(self) -> ComponentStatus:
        return ComponentStatus.worst(c.status for c in self.components)


def live_metrics():
    """Metrics in page order with what incidents.readings needs (probe, health) in the same query."""
    return Metric.objects.select_related("probe", "health").order_by("position", "slug")


def grouped_components() -> list[GroupView]:
    """Components in their groups, in page order, with their metrics loaded."""
    components = Component.objects.select_related("group").prefetch_related(
        Prefetch("metrics", queryset=live_metrics())
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


# --- issue 3: reads of the public site and feeds (reused by the APIs) ---
#
# Every function here runs a fixed number of queries whatever the size of the history:
# pages read bounded windows (90 days of status periods, 24 hours of hourly rollups, one
# page of incidents) and never loop over rows issuing queries.


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


def _with_timeline(queryset):
    return queryset.prefetch_related(
        Prefetch("updates", queryset=IncidentUpdate.objects.timeline()),
        Prefetch("components", queryset=Component.objects.order_by("position", "slug")),
    )


def page_summary() -> PageSummary:
    """What the overview (and Statuspage's summary.json) says: indicator, groups, open events."""
    groups = grouped_components()
    components = [c for g in groups for c in g.components]
    open_events = list(_with_timeline(Incident.objects.published().open().order_by("-started_at")))
    active = [i for i in open_events if not i.is_maintenance]
    in_progress = [i for i in open_events if i.is_maintenance and i.status != IncidentStatus.SCHEDULED]
    upcoming = sorted(
        (i for i in open_events if i.is_maintenance and i.status == IncidentStatus.SCHEDULED),
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


def status_periods(component_ids: Iterable[int], *, since: dt.datetime) -> dict[int, list[Period]]:
    """Status periods of the components that overlap [since, now), by component (one query)."""
    rows = (
        # No bound on started_at: with one, SQLite walks every period since the component began
        # instead of the (component, ended_at) index. Spans ignore whatever starts after now.
        StatusPeriod.objects.filter(component_id__in=list(component_ids))
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=since))
        .order_by("started_at")
        .values_list("component_id", "status", "started_at", "ended_at")
    )
    periods: dict[int, list[Period]] = defaultdict(list)
    for component_id, status, started_at, ended_at in rows:
        periods[component_id].append(Period(status, started_at, ended_at))
    return periods


def incidents_by_component(component_ids: Iterable[int], *, since: dt.datetime) -> dict[int, list[dict]]:
    """Published incidents touching the components since `since`, as small dicts (one query)."""
    rows = (
        Incident.components.through.objects.filter(
            component_id__in=list(component_ids),
            incident__published_at__isnull=False,
            incident__kind=IncidentKind.INCIDENT,
        )
        .filter(Q(incident__resolved_at__isnull=True) | Q(incident__resolved_at__gte=since))
        .filter(incident__started_at__lt=timezone.now())
        .order_by("incident__started_at")
        .values(
            "component_id",
            "incident__slug",
            "incident__title",
            "incident__original_language",
            "incident__started_at",
            "incident__resolved_at",
        )
    )
    found: dict[int, list[dict]] = defaultdict(list)
    for row in rows:
        found[row["component_id"]].append(row)
    return found


def uptime_days(components: Sequence[Component], *, days: int = 90) -> dict[int, list[Span]]:
    """For each component, one span per day of the last `days` days with the incidents in it."""
    now, zone = timezone.now(), status_zone()
    boundaries = day_starts(days=days, now=now, zone=zone)
    ids = [c.pk for c in components]
    periods = status_periods(ids, since=boundaries[0])
    incidents = incidents_by_component(ids, since=boundaries[0])
    result = {}
    for component in components:
        component_spans = spans(
            periods.get(component.pk, []),
            boundaries,
            now=now,
            observed_from=observed_from(component.start_date, zone),
        )
        for row in incidents.get(component.pk, []):
            start, end = row["incident__started_at"], row["incident__resolved_at"] or now
            first = max(bisect_right(boundaries, start) - 1, 0)
            for span in component_spans[first:]:
                if span.start >= end:
                    break
                if start < span.end:
                    span.incidents.append(row)
        result[component.pk] = component_spans
    return result


def uptime(component: Component, *, days: int = 90) -> list[Span]:
    """One span per day of the last `days` days of one component."""
    return uptime_days([component], days=days)[component.pk]


UPTIME_COLUMNS = [(status.value, UptimeMonth.column(status.value)) for status in ComponentStatus]


def uptime_by_month(components: Sequence[Component], *, months: int = 3) -> tuple[list[dt.datetime], dict]:
    """Month starts and, per component, one span per month (two queries).

    Closed periods come counted per month (UptimeMonth), the running period is added here.
    A component whose months were counted from another start date than its own (changed
    around the services) is replayed from its periods instead (one more query).

    Time is counted to the start of the current minute: the table says its durations in
    minutes, and renders within one minute show the same figures (and the same ETag).
    """
    now, zone = timezone.now().replace(second=0, microsecond=0), status_zone()
    grid = _month_grid(now, zone, months)
    boundaries = grid.boundaries
    # The page asks for every component: rows of the others are read and skipped, which is
    # cheaper than a list of ids in the query. Unordered: the models' orderings would join the
    # components and their groups. Dates come as ISO text: rows are compared, not computed with.
    counted: dict[int, list[tuple]] = defaultdict(list)
    for component_id, *row in (
        UptimeMonth.objects.filter(month__gte=boundaries[0].date(), month__lt=boundaries[-1].date())
        .order_by()
        .values_list(
            "component_id",
            Cast("month", TextField()),
            Cast("counted_from", TextField()),
            *(column for _status, column in UPTIME_COLUMNS),
        )
    ):
        counted[component_id].append(tuple(row))
    running = {
        component_id: Period(status, started_at, None)
        for component_id, status, started_at in StatusPeriod.objects.filter(ended_at__isnull=True)
        .order_by()
        .values_list("component_id", "status", "started_at")
    }
    result, stale = {}, []
    for component in components:
        rows = tuple(sorted(counted[component.pk]))
        start_date = component.start_date.isoformat() if component.start_date else None
        if any(counted_from != start_date for _month, counted_from, *_seconds in rows):
            stale.append(component)
        else:
            result[component.pk] = counted_month_spans(
                grid, rows, running.get(component.pk), now=now, start_date=component.start_date
            )
    if stale:
        replayed = status_periods([c.pk for c in stale], since=boundaries[0])
        for component in stale:
            start = observed_from(component.start_date, zone)
            result[component.pk] = spans(
                replayed.get(component.pk, []), boundaries, now=now, observed_from=start
            )
    return list(boundaries[:-1]), result


@lru_cache(maxsize=4)
def _month_grid(now: dt.datetime, zone: ZoneInfo, months: int) -> MonthGrid:
    """The month grid of this minute: one object for every render within it, which also
    makes it a cheap part of counted_month_spans' keys."""
    return MonthGrid(month_starts(months=months, now=now, zone=zone))


@kept(4096)
def counted_month_spans(
    grid: MonthGrid,
    rows: tuple[tuple, ...],
    running: Period | None,
    *,
    now: dt.datetime,
    start_date: dt.date | None,
) -> tuple[Span, ...]:
    """One component's month spans from its UptimeMonth rows ((month, counted from, seconds per
    status…), dates as ISO text) and its running period, counted until `now`.

    Kept by those inputs: within a minute every render of the uptime page asks the same.
    The spans are shared between callers, who must not change them."""
    counted = {
        dt.date.fromisoformat(month): {
            status: value for (status, _column), value in zip(UPTIME_COLUMNS, seconds, strict=True) if value
        }
        for month, _counted_from, *seconds in rows
    }
    start = observed_from(start_date, grid.boundaries[0].tzinfo)
    return tuple(month_spans(grid, counted, running, now=now, observed_from=start))


def rollup_value(metric: Metric, row: dict) -> float | None:
    """The value a rollup row stands for, by the metric's aggregation."""
    if metric.aggregation == Aggregation.MAX:
        return row["maximum"]
    if metric.aggregation == Aggregation.P95:
        return row["p95"]
    measured = row["count"] - row["failures"]
    return row["total"] / measured if measured else None


def metric_series(
    metrics: Sequence[Metric], *, resolution: Resolution, since: dt.datetime, until: dt.datetime
) -> dict[int, list[tuple[dt.datetime, float | None]]]:
    """Rollup values of each metric between the two times, oldest first (one query)."""
    by_id = {m.pk: m for m in metrics}
    rows = (
        Rollup.objects.filter(
            metric_id__in=list(by_id), resolution=resolution, bucket_start__gte=since, bucket_start__lt=until
        )
        .order_by("bucket_start")
        .values("metric_id", "bucket_start", "count", "failures", "maximum", "total", "p95")
    )
    series: dict[int, list] = defaultdict(list)
    for row in rows:
        series[row["metric_id"]].append((row["bucket_start"], rollup_value(by_id[row["metric_id"]], row)))
    return series


def hourly_values(metrics: Sequence[Metric], *, hours: int = 24) -> dict[int, list[float | None]]:
    """For each metric, one value per hour of the last `hours` hours (None for no data)."""
    now = timezone.now()
    first = now.replace(minute=0, second=0, microsecond=0) - dt.timedelta(hours=hours - 1)
    series = metric_series(
        metrics, resolution=Resolution.HOUR, since=first, until=now + dt.timedelta(hours=1)
    )
    result = {}
    for metric in metrics:
        by_hour = dict(series.get(metric.pk, []))
        result[metric.pk] = [by_hour.get(first + dt.timedelta(hours=n)) for n in range(hours)]
    return result


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
    for item in items:
        item.postmortem = postmortem
    return PostmortemView(postmortem, list(postmortem.sections_in(language)), items)


def public_component(slug: str) -> Component:
    queryset = Component.objects.select_related("group").prefetch_related(
        Prefetch("metrics", queryset=live_metrics())
    )
    return get_object_or_404(queryset, slug=slug)


def component_incidents(component: Component, *, limit: int = 20) -> list[Incident]:
    """The component's newest published incidents and maintenance."""
    return list(Incident.objects.published().filter(components=component).order_by("-started_at")[:limit])


def component_choices():
    """Every component in page order (groups in order, then those in none) as light rows with
    .pk, .slug, .name_json (the name's stored JSON text) and .start_date, for filters and
    tables, which keep what they draw by those texts."""
    return list(
        Component.objects.annotate(name_json=Cast("name", TextField()))
        .order_by(F("group__position").asc(nulls_last=True), "group__slug", "position", "slug")
        .values_list("pk", "slug", "name_json", "start_date", named=True)
    )


# What lists of incidents and maintenance show (history, maintenance): plain rows, as a page
# lists dozens and building a model with its related managers costs more than showing it.
# The title comes as its stored JSON text (`title_json`): rows are kept by what they show
# (incidents.event_lists), and text is cheaper to compare than to decode.
EVENT_FIELDS = (
    "pk",
    "slug",
    "kind",
    "original_language",
    "impact",
    "status",
    "started_at",
    "resolved_at",
    "scheduled_for",
    "scheduled_until",
)


def _event_rows(queryset):
    return queryset.values(*EVENT_FIELDS, title_json=Cast("title", TextField()))


def affected_components(incident_ids: Iterable[int]) -> dict[int, tuple[str, ...]]:
    """The names (stored JSON text) of each incident's components, in page order (one query)."""
    rows = (
        Incident.components.through.objects.filter(incident_id__in=list(incident_ids))
        .order_by("component__position", "component__slug")
        .values_list("incident_id", Cast("component__name", TextField()))
    )
    found: dict[int, list[str]] = defaultdict(list)
    for incident_id, name in rows:
        found[incident_id].append(name)
    return {incident_id: tuple(names) for incident_id, names in found.items()}


def history(*, component: Component | int | None = None, page: int = 1, page_size: int = 25) -> Page:
    """One page of published incidents and maintenance (EVENT_FIELDS rows), newest first,
    optionally of one component."""
    order = ("-started_at", "-id")
    queryset = Incident.objects.published().order_by(*order)
    if component is not None:
        queryset = queryset.filter(components=component)
    # Ids first, rows after: a component's incidents are sorted, and sorting them with their
    # texts costs more than sorting their ids.
    found = Paginator(queryset.values_list("pk", flat=True), page_size).get_page(page)
    found.object_list = list(_event_rows(Incident.objects.filter(pk__in=found.object_list).order_by(*order)))
    return found


def maintenance_windows(*, past_limit: int = 20) -> tuple[list[dict], list[dict]]:
    """Upcoming and in-progress maintenance (soonest first), and past windows (newest first),
    as EVENT_FIELDS rows."""
    queryset = Incident.objects.published().maintenances()
    # The open statuses named rather than the closed ones excluded: the (kind, status) index
    # then finds the few open windows instead of reading every past one. They are sorted here,
    # as an ORDER BY would make SQLite walk every window in the (kind, scheduled_for) index.
    open_statuses = [s for s in STATUSES_BY_KIND[IncidentKind.MAINTENANCE] if not s.is_closed]
    coming = sorted(
        _event_rows(queryset.filter(status__in=open_statuses).order_by()),
        key=lambda w: (w["scheduled_for"] is None, w["scheduled_for"] or w["started_at"], w["started_at"]),
    )
    past = list(
        _event_rows(
            queryset.exclude(pk__in=[i["pk"] for i in coming]).order_by("-scheduled_for", "-started_at")
        )[:past_limit]
    )
    return coming, past


# Texts come as their stored JSON text (`body_json`, `body_html_json`, `incident_title_json`):
# feed entries are kept by what they are written from (incidents.feeds).
FEED_FIELDS = (
    "public_id",
    "status",
    "original_language",
    "display_at",
    "created_at",
    "updated_at",
    "incident__slug",
    "incident__original_language",
)
FEED_TEXTS = {
    "body_json": Cast("body", TextField()),
    "body_html_json": Cast("body_html", TextField()),
    "incident_title_json": Cast("incident__title", TextField()),
}


def feed_updates(*, component: Component | None = None, limit: int = 50) -> list[dict]:
    """The newest updates of published incidents and maintenance (FEED_FIELDS rows), for the feeds."""
    order = ("-display_at", "-created_at", "-id")
    if component is None:
        # EXISTS rather than a join: with a join and a small limit SQLite sorts every update
        # instead of walking the display_at index (40 ms against 0.05 for 11 entries).
        published = Incident.objects.filter(pk=OuterRef("incident_id"), published_at__isnull=False)
        newest = IncidentUpdate.objects.filter(Exists(published))
        newest_ids = newest.order_by(*order).values("pk")[:limit]
    else:
        # A component's updates in the order of its index (component, display_at, created_at,
        # update): the newest are read first, whatever the length of its history.
        newest_ids = (
            ComponentTimelineEntry.objects.filter(
                component=component, update__incident__published_at__isnull=False
            )
            .order_by("-display_at", "-created_at", "-update_id")
            .values("update_id")[:limit]
        )
    return list(
        IncidentUpdate.objects.filter(pk__in=newest_ids).order_by(*order).values(*FEED_FIELDS, **FEED_TEXTS)
    )


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
