"""Live metric figures for the pages and APIs: value, status, and "no data" after 3 silent
intervals, rather than the last value shown as if it were current."""

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone

from incidents.metrics.health import NO_DATA_INTERVALS
from incidents.models import ComponentStatus, Metric, MetricHealth, MetricKind, RegionHealth


@dataclass(frozen=True)
class MetricReading:
    metric: Metric
    value: float | None
    at: dt.datetime | None
    status: ComponentStatus | None
    no_data: bool
    # Measured from several regions: how many reported at the last evaluation, and how many of
    # those agreed on its status (0 while too few report for a quorum); 0 and 0 otherwise.
    regions_reporting: int = 0
    regions_agreeing: int = 0

    @property
    def failed(self) -> bool:
        """The newest sample was a failure or timeout (it has no value)."""
        return self.at is not None and self.value is None and not self.no_data


def expected_interval(metric: Metric) -> int:
    # A missing reverse one-to-one raises an AttributeError subclass, so getattr's default applies.
    probe = getattr(metric, "probe", None)
    return max(metric.expected_interval, probe.interval if probe else 0)


def _is_stale(metric: Metric, at: dt.datetime | None, now: dt.datetime) -> bool:
    # now − at, never at + the allowance: a time stored near year 9999 has no room after it.
    return at is None or now - at > dt.timedelta(seconds=NO_DATA_INTERVALS * expected_interval(metric))


def metric_reading(metric: Metric, *, now: dt.datetime | None = None) -> MetricReading:
    """What the page shows for one metric (load it with select_related("probe", "health")); not
    evaluated yet (no MetricHealth), the status its latest value stands for. Measured from several
    regions, the figure their quorum decided on."""
    value, at = metric.latest_value, metric.latest_at
    reporting = agreeing = 0
    try:
        health = metric.health
    except MetricHealth.DoesNotExist:
        status = None if value is None else metric.status_for(value)
    else:
        status = ComponentStatus(health.status)
        if health.regions_reporting > 1:
            reporting, agreeing = health.regions_reporting, health.regions_agreeing
            if agreeing:  # the figure the quorum decided on, rather than one region's last value
                value = health.figure
    no_data = _is_stale(metric, at, now or timezone.now())
    return MetricReading(
        metric=metric,
        value=None if no_data else value,
        at=at,
        status=None if no_data else status,
        no_data=no_data,
        regions_reporting=reporting,
        regions_agreeing=agreeing,
    )


def lateness(reading: MetricReading) -> float | None:
    """How far a fresh latency value is past its degraded threshold, its component "up, but late"
    (None when it is not)."""
    metric, limit = reading.metric, reading.metric.degraded_threshold
    if reading.no_data or reading.value is None or limit is None or reading.value < limit:
        return None
    return reading.value - limit if metric.kind == MetricKind.LATENCY and metric.higher_is_worse else None


def is_region_reporting(row: RegionHealth, metric: Metric, *, now: dt.datetime) -> bool:
    """A region reports while its reachability check passes and it missed fewer than
    PROBE_REGION_MISSED_TICKS ticks (counted from its latest tick, with the run's own time)."""
    if not row.reachable or row.tick_at is None:
        return False
    probe = getattr(metric, "probe", None)
    allowance = settings.PROBE_REGION_MISSED_TICKS * expected_interval(metric)
    allowance += probe.timeout if probe is not None else 0
    return now - row.tick_at <= dt.timedelta(seconds=allowance)
