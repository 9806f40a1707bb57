"""Records of the past (Statuspage's `backfilled` incidents): their component impact written into
status periods on their own days, leaving current status alone.

A record's impact is what its updates said of each component, from the update's shown time to
the next change or the resolution. It is laid over the periods of the days it touches (days in
the page's zone, like all uptime): the worse status wins, so a record never hides an outage that
was observed. Time of those days that nothing observed counts as operational, since a record
says the component was there and what was wrong with it. Impact only ever grows: correcting a
record's statuses downwards needs the periods edited by hand.
"""

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.db.models.functions import Coalesce
from django.utils import timezone

from incidents.formatting import status_zone
from incidents.metrics.uptime import SEVERITY_BY_VALUE
from incidents.models import Component, ComponentChange, ComponentStatus, Incident, StatusPeriod
from incidents.public.versions import content_changed
from incidents.services.uptime_months import recount_uptime_months


class Segment(NamedTuple):
    status: str
    started_at: dt.datetime
    ended_at: dt.datetime | None


class Span(NamedTuple):
    """A closed stretch of one status, as a record's updates give it."""

    status: str
    started_at: dt.datetime
    ended_at: dt.datetime


def status_at(component: Component, at: dt.datetime) -> ComponentStatus:
    """The status a component's periods give it at `at` (operational where none was observed)."""
    period = (
        StatusPeriod.objects.filter(component=component, started_at__lte=at)
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=at))
        .first()
    )
    return ComponentStatus(period.status) if period else ComponentStatus.OPERATIONAL


def impact_segments(incident: Incident) -> dict[int, list[Span]]:
    """What the record's updates said of each component, by component id, until its resolution."""
    end = incident.resolved_at
    if end is None:
        return {}
    # A declaration's changes (held by the incident, or carried by its first written update)
    # count from the incident's start, before any update's.
    changes = (
        ComponentChange.objects.filter(Q(update__incident=incident) | Q(declared_on=incident))
        .annotate(
            at=Coalesce(
                Case(When(declared_on=incident, then=Value(incident.started_at))), "update__display_at"
            )
        )
        .filter(at__lt=end)
        .order_by("at", F("update__created_at").asc(nulls_first=True), F("update__id").asc(nulls_first=True))
        .values_list("component_id", "new_status", "at")
    )
    moves: dict[int, list[tuple[dt.datetime, str]]] = defaultdict(list)
    for component_id, status, at in changes:
        moves[component_id].append((max(at, incident.started_at), status))
    segments: dict[int, list[Span]] = {}
    for component_id, steps in moves.items():
        bounds = [at for at, _status in steps[1:]] + [end]
        segments[component_id] = [
            Span(status, start, stop)
            for (start, status), stop in zip(steps, bounds, strict=True)
            if start < stop and status != ComponentStatus.OPERATIONAL
        ]
    return segments


@transaction.atomic
def write_records_impact(incidents: Iterable[Incident]) -> int:
    """Lays resolved records' impact over their components' periods on their own days and
    recounts their months, each component locked and recounted once (an import writes hundreds);
    returns how many components it touched."""
    touched: dict[int, Component] = {}
    for incident in incidents:
        for component_id, segments in impact_segments(incident).items():
            if not segments:
                continue
            if component_id not in touched:
                touched[component_id] = Component.objects.select_for_update().get(pk=component_id)
            for segment in segments:
                _lay_over_days(touched[component_id], segment)
    if touched:
        recount_uptime_months(touched.values())
        # Their history changed: what is kept under what the components show is drawn again.
        Component.objects.filter(pk__in=touched).update(updated_at=timezone.now())
        content_changed()
    return len(touched)


def _local_days(start: dt.datetime, end: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    """The local midnight opening the day of `start` and the one closing the day of `end`."""
    zone = status_zone()
    first = start.astimezone(zone).date()
    last = (end - dt.timedelta(microseconds=1)).astimezone(zone).date()
    opening = dt.datetime.combine(first, dt.time(), tzinfo=zone)
    closing = dt.datetime.combine(last + dt.timedelta(days=1), dt.time(), tzinfo=zone)
    return opening.astimezone(dt.UTC), closing.astimezone(dt.UTC)


def _lay_over_days(component: Component, impact: Span) -> None:
    day_start, day_end = _local_days(impact.started_at, impact.ended_at)
    day_end = min(day_end, timezone.now())
    overlapping = list(
        StatusPeriod.objects.filter(component=component, started_at__lt=day_end)
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=day_start))
        .order_by("started_at")
    )
    observed = [Segment(p.status, p.started_at, p.ended_at) for p in overlapping]
    outside = []
    for period in observed:
        if period.started_at < day_start:
            outside.append(Segment(period.status, period.started_at, day_start))
        if period.ended_at is None or period.ended_at > day_end:
            outside.append(Segment(period.status, day_end, period.ended_at))
    inside = _overlay(observed, impact, day_start=day_start, day_end=day_end)
    merged = _merged(sorted([*outside, *inside], key=lambda s: s.started_at))
    StatusPeriod.objects.filter(pk__in=[p.pk for p in overlapping]).delete()
    StatusPeriod.objects.bulk_create(
        StatusPeriod(component=component, status=s.status, started_at=s.started_at, ended_at=s.ended_at)
        for s in merged
    )


def _overlay(
    observed: list[Segment], impact: Span, *, day_start: dt.datetime, day_end: dt.datetime
) -> list[Segment]:
    """The days [day_start, day_end) cut at every boundary, each piece in the worst of what was
    observed and what the record says (operational where neither says anything)."""
    cuts = {day_start, day_end, max(impact.started_at, day_start), min(impact.ended_at, day_end)}
    for period in observed:
        cuts |= {t for t in (period.started_at, period.ended_at) if t is not None and day_start < t < day_end}
    points = sorted(cuts)
    pieces = []
    for start, stop in zip(points, points[1:], strict=False):
        statuses = [
            p.status for p in observed if p.started_at <= start and (p.ended_at is None or p.ended_at > start)
        ]
        if impact.started_at <= start < impact.ended_at:
            statuses.append(impact.status)
        status = max(statuses, key=SEVERITY_BY_VALUE.__getitem__, default=ComponentStatus.OPERATIONAL.value)
        pieces.append(Segment(status, start, stop))
    return pieces


def _merged(segments: list[Segment]) -> list[Segment]:
    """Neighbouring segments of the same status joined (the last may stay open)."""
    result: list[Segment] = []
    for segment in segments:
        if result and result[-1].status == segment.status and result[-1].ended_at == segment.started_at:
            result[-1] = Segment(segment.status, result[-1].started_at, segment.ended_at)
        else:
            result.append(segment)
    return result
