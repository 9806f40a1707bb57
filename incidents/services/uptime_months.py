"""The time each component spent in each status per month (UptimeMonth), kept with its periods.

The uptime page reads these rows instead of replaying status periods: a status change adds
the period it closes, and a change of start date (or periods written in bulk) recounts.
"""

from collections.abc import Iterable

from django.db.models import F

from incidents.formatting import status_zone
from incidents.metrics.uptime import Period, observed_from, seconds_by_month
from incidents.models import Component, StatusPeriod, UptimeMonth


def count_closed_period(component: Component, period: StatusPeriod) -> None:
    """Adds a period that has just closed to its component's months."""
    zone = status_zone()
    months = seconds_by_month(
        [Period(period.status, period.started_at, period.ended_at)],
        zone=zone,
        observed_from=observed_from(component.start_date, zone),
    )
    for month, seconds in months.items():
        row, _created = UptimeMonth.objects.get_or_create(
            component=component, month=month, defaults={"counted_from": component.start_date}
        )
        increments = {UptimeMonth.column(s): F(UptimeMonth.column(s)) + value for s, value in seconds.items()}
        UptimeMonth.objects.filter(pk=row.pk).update(**increments)


def recount_uptime_months(components: Iterable[Component]) -> int:
    """Counts the months of the components afresh from all their closed periods; returns the rows."""
    components = list(components)
    zone = status_zone()
    periods: dict[int, list[Period]] = {c.pk: [] for c in components}
    closed = (
        StatusPeriod.objects.filter(component__in=components, ended_at__isnull=False)
        .order_by("started_at")
        .values_list("component_id", "status", "started_at", "ended_at")
    )
    for component_id, status, started_at, ended_at in closed:
        periods[component_id].append(Period(status, started_at, ended_at))
    rows = [
        UptimeMonth(
            component=component,
            month=month,
            counted_from=component.start_date,
            **{UptimeMonth.column(status): value for status, value in seconds.items()},
        )
        for component in components
        for month, seconds in seconds_by_month(
            periods[component.pk], zone=zone, observed_from=observed_from(component.start_date, zone)
        ).items()
    ]
    UptimeMonth.objects.filter(component__in=components).delete()
    UptimeMonth.objects.bulk_create(rows, batch_size=2000)
    return len(rows)
