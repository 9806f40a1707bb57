"""Reads of status periods as day and month spans (uptime bars and the uptime table)."""

import datetime as dt
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import OuterRef, Q, Subquery, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from incidents.formatting import status_zone
from incidents.metrics.uptime import (
    MonthGrid,
    Period,
    Span,
    day_starts,
    month_spans,
    month_starts,
    observed_from,
    spans,
)
from incidents.models import Component, ComponentStatus, Incident, IncidentKind, StatusPeriod, UptimeMonth

from .history import first_month


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


def incidents_by_component(
    component_ids: Iterable[int], *, since: dt.datetime
) -> dict[int, list[Mapping[str, Any]]]:
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
    found: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        found[row["component_id"]].append(row)
    return found


def uptime_days(
    components: Sequence[Component], *, days: int = 90, now: dt.datetime | None = None
) -> dict[int, list[Span]]:
    """For each component, one span per day of the last `days` days with its incidents (two queries)."""
    now, zone = now or timezone.now(), status_zone()
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


def first_status_month(zone: ZoneInfo, *, times: dict[int, dt.datetime] | None = None) -> dt.date | None:
    """The first day of the first status period's month in `zone`, from `times` when given."""
    times = first_status_times() if times is None else times
    return first_month(min(times.values(), default=None), zone)


def first_status_times() -> dict[int, dt.datetime]:
    """When each component's first status period began, by component id (one query)."""
    # Each component's first period through the (component, started_at) index: the first of
    # all periods by started_at alone is a scan of every period there ever was.
    firsts = (
        StatusPeriod.objects.filter(component=OuterRef("pk")).order_by("started_at").values("started_at")[:1]
    )
    starts = Component.objects.order_by().annotate(first=Subquery(firsts)).values_list("pk", "first")
    return {pk: start for pk, start in starts if start is not None}


def uptime_by_month(
    components: Sequence[Component], *, months: int = 3, last: dt.date | None = None
) -> tuple[list[dt.datetime], dict]:
    """Month starts and, per component, one span per month up to `last` (the current month), from
    UptimeMonth rows and the running period (replayed from the periods when counted from another
    start date); counted to the minute, so renders within one minute show the same figures and ETag."""
    now, zone = timezone.now().replace(second=0, microsecond=0), status_zone()
    ending = now if last is None else dt.datetime.combine(last, dt.time(12), tzinfo=zone)
    grid = MonthGrid(month_starts(months=months, now=min(ending, now), zone=zone))
    boundaries = grid.boundaries
    # The page asks for every component: rows of the others are read and skipped, which is
    # cheaper than a list of ids in the query. Unordered: the models' orderings would join the
    # components and their groups.
    counted: dict[int, list[tuple]] = defaultdict(list)
    for component_id, *row in (
        UptimeMonth.objects.filter(month__gte=boundaries[0].date(), month__lt=boundaries[-1].date())
        .order_by()
        .values_list(
            "component_id",
            "month",
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
        rows = counted[component.pk]
        start_date = component.start_date.isoformat() if component.start_date else None
        if any(counted_from != start_date for _month, counted_from, *_seconds in rows):
            stale.append(component)
        else:
            start = observed_from(component.start_date, zone)
            result[component.pk] = counted_month_spans(
                grid, rows, running.get(component.pk), now=now, start=start
            )
    if stale:
        replayed = status_periods([c.pk for c in stale], since=boundaries[0])
        for component in stale:
            start = observed_from(component.start_date, zone)
            result[component.pk] = spans(
                replayed.get(component.pk, []), boundaries, now=now, observed_from=start
            )
    return list(boundaries[:-1]), result


def counted_month_spans(
    grid: MonthGrid, rows: list[tuple], running: Period | None, *, now: dt.datetime, start: dt.datetime | None
) -> list[Span]:
    """One component's month spans from its UptimeMonth rows and running period, from `start`."""
    counted = {
        month: {
            status: value for (status, _column), value in zip(UPTIME_COLUMNS, seconds, strict=True) if value
        }
        for month, _counted_from, *seconds in rows
    }
    return month_spans(grid, counted, running, now=now, observed_from=start)
