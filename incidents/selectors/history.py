"""Reads of published incidents and maintenance as lists: history, maintenance and feeds."""

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from zoneinfo import ZoneInfo

from django.core.paginator import Page, Paginator
from django.db.models import Max, Prefetch, QuerySet, prefetch_related_objects
from django.utils import timezone

from incidents.models import Component, Incident, IncidentKind, IncidentStatus, IncidentUpdate
from incidents.models.incidents import STATUSES_BY_KIND
from incidents.validation.instants import EARLIEST

from .precompiled import Precompiled


def with_shown_components(events: list[Incident]) -> list[Incident]:
    """The events with their components (names in page order) loaded in one query."""
    components = Component.objects.order_by("position", "slug").only("pk", "slug", "name")
    prefetch_related_objects(events, Prefetch("components", queryset=components))
    return events


def attach_components(events: list[Incident], links: Iterable[tuple[int, Component]]) -> None:
    """Gives each event the components that `links` (event id, component) pair it with, in their
    order, where `event.components.all()` finds them as prefetch_related leaves them: its work for
    each event cost the overview more than the query."""
    found: dict[int, list[Component]] = defaultdict(list)
    for event_id, component in links:
        found[event_id].append(component)
    for event in events:
        loaded = Component.objects.none()
        loaded._result_cache = found.get(event.pk, [])
        loaded._prefetch_done = True  # type: ignore[attr-defined]
        cached = getattr(event, "_prefetched_objects_cache", {})
        event._prefetched_objects_cache = {**cached, "components": loaded}  # type: ignore[attr-defined]


def past_events(
    *, component: Component | int | None = None, impact: str = "", now: dt.datetime | None = None
) -> QuerySet[Incident]:
    """Published events begun (upcoming maintenance is not history), of one component and impact."""
    queryset = (
        Incident.objects.published()
        .filter(started_at__lte=now or timezone.now())
        .exclude(kind=IncidentKind.MAINTENANCE, status=IncidentStatus.SCHEDULED)
    )
    if component is not None:
        queryset = queryset.filter(components=component)
    if impact == IncidentKind.MAINTENANCE:
        queryset = queryset.filter(kind=IncidentKind.MAINTENANCE)
    elif impact:
        queryset = queryset.filter(kind=IncidentKind.INCIDENT, impact=impact)
    return queryset


# The most past events the overview lists, so that it stays short.
EVENTS_SINCE_LIMIT = 100


def past_events_between(since: dt.datetime, now: dt.datetime) -> QuerySet[Incident]:
    return (
        past_events(now=now).filter(started_at__gte=since).order_by("-started_at", "-id")[:EVENTS_SINCE_LIMIT]
    )


_events_since = Precompiled(past_events_between, times=("since", "now"))


def events_since(
    since: dt.datetime, *, now: dt.datetime | None = None, with_components: bool = True
) -> list[Incident]:
    """Past events begun since `since` (and by `now`), newest first, at most EVENTS_SINCE_LIMIT;
    with their components unless the caller loads them with others'."""
    events = _events_since(since=since, now=now or timezone.now())
    return with_shown_components(events) if with_components else events


def history(
    *,
    component: Component | int | None = None,
    impact: str = "",
    since: dt.datetime | None = None,
    until: dt.datetime | None = None,
    page: int = 1,
    page_size: int = 25,
) -> Page:
    """One page (the first when there is no `page`) of past events started in [since, until)."""
    order = ("-started_at", "-id")
    queryset = past_events(component=component, impact=impact).order_by(*order)
    if since is not None:
        queryset = queryset.filter(started_at__gte=since)
    if until is not None:
        queryset = queryset.filter(started_at__lt=until)
    # Ids first, rows after: a component's incidents are sorted, and sorting them with their
    # texts costs more than sorting their ids.
    paginator = Paginator(queryset.values_list("pk", flat=True), page_size)
    found: Page = paginator.page(page if 1 <= page <= paginator.num_pages else 1)
    found.object_list = with_shown_components(
        list(Incident.objects.filter(pk__in=found.object_list).order_by(*order))
    )
    return found


def first_history_month(zone: ZoneInfo) -> dt.date | None:
    """The month of the first past event, whatever the filters (one query)."""
    return first_month(
        past_events().order_by("started_at").values_list("started_at", flat=True).first(), zone
    )


def first_month(first: dt.datetime | None, zone: ZoneInfo) -> dt.date | None:
    """The first day of the month lists begin at, held between EARLIEST and now (times set by hand)."""
    if first is None:
        return None
    return min(max(first, EARLIEST), timezone.now()).astimezone(zone).date().replace(day=1)


def maintenance_windows(*, past_limit: int = 20) -> tuple[list[Incident], list[Incident]]:
    """Upcoming and in-progress maintenance (soonest first), and past windows (newest first)."""
    queryset = Incident.objects.published().maintenances()
    # The open statuses named rather than the closed ones excluded: the (kind, status) index
    # then finds the few open windows instead of reading every past one. They are sorted here,
    # as an ORDER BY would make SQLite walk every window in the (kind, scheduled_for) index.
    open_statuses = [s for s in STATUSES_BY_KIND[IncidentKind.MAINTENANCE] if not s.is_closed]
    coming = sorted(
        queryset.filter(status__in=open_statuses).order_by(),
        key=lambda w: (w.scheduled_for is None, w.scheduled_for or w.started_at, w.started_at),
    )
    past = list(
        queryset.exclude(pk__in=[w.pk for w in coming]).order_by("-scheduled_for", "-started_at")[:past_limit]
    )
    with_shown_components([*coming, *past])
    return coming, past


def feed_updates(*, component: Component | None = None, limit: int = 50) -> list[IncidentUpdate]:
    """Every update of the `limit` published events (of one component) with the newest activity."""
    order = ("-display_at", "-created_at", "-id")
    if component is None:
        newest = _newest_published(limit)
    else:
        incidents = Incident.objects.published().filter(components=component)
        newest = incidents.annotate(last_activity=Max("updates__display_at")).order_by(
            "-last_activity", "-id"
        )
        newest = newest.values("pk")[:limit]
    # Incidents rather than updates are counted: one long incident's updates must not push the
    # incidents before it out of the feed.
    updates = IncidentUpdate.objects.filter(incident__in=newest)
    return list(updates.select_related("incident").order_by(*order))


def _newest_published(limit: int) -> list[int]:
    """The `limit` published incidents with the newest updates, walking the update_timeline index."""
    walk = IncidentUpdate.objects.order_by("-display_at", "-created_at", "-id").values_list(
        "incident_id", flat=True
    )
    found: dict[int, None] = {}
    chunk, start = limit * 10, 0
    while len(found) < limit:
        walked = list(walk[start : start + chunk])
        ids = list(dict.fromkeys(walked))
        published = set(Incident.objects.published().filter(pk__in=ids).values_list("pk", flat=True))
        found.update(dict.fromkeys(pk for pk in ids if pk in published))
        if len(walked) < chunk:
            break
        start += chunk
    return list(found)[:limit]
