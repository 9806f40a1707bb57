"""Reads of the maintenance calendar: the windows an iCalendar feed lists."""

import datetime as dt

from django.db.models import Prefetch, Q
from django.utils import timezone

from incidents.models import Component, Incident, IncidentUpdate

# Past windows stay in the feed this long, so a calendar keeps recent history.
CALENDAR_PAST_DAYS = 180
CALENDAR_LIMIT = 200


def calendar_maintenance(*, component: Component | None = None) -> list[Incident]:
    """Published maintenance ending within CALENDAR_PAST_DAYS or later, soonest first, with updates."""
    since = timezone.now() - dt.timedelta(days=CALENDAR_PAST_DAYS)
    queryset = Incident.objects.published().maintenances()
    if component is not None:
        queryset = queryset.filter(components=component)
    recent = (
        Q(scheduled_until__gte=since)
        | Q(scheduled_until__isnull=True, scheduled_for__gte=since)
        | Q(scheduled_until__isnull=True, scheduled_for__isnull=True, started_at__gte=since)
    )
    windows = queryset.filter(recent).prefetch_related(
        Prefetch("updates", queryset=IncidentUpdate.objects.order_by("display_at", "created_at", "id"))
    )
    # Newest first to keep the latest CALENDAR_LIMIT, shown soonest first.
    newest = list(windows.order_by("-scheduled_for", "-started_at")[:CALENDAR_LIMIT])
    return sorted(newest, key=lambda w: (w.scheduled_for or w.started_at, w.pk))
