"""Live metric figures for the pages and APIs: value, status, and "no data" after 3 silent
intervals, rather than the last value shown as if it were current."""

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from incidents.metrics.health import NO_DATA_INTERVALS
from incidents.models import ComponentStatus, Metric, MetricHealth, MetricKind


@dataclass(frozen=True)
class MetricReading:
    metric: Metric
    value: float | None
    at: dt.datetime | None
    status: ComponentStatus | None
    no_data: bool

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
    """What the page shows for one metric. Load metrics with select_related("probe", "health")."""
    try:
        health_status = metric.health.status
    except MetricHealth.DoesNotExist:
        health_status = None
    return reading_of(
        metric, value=metric.latest_value, at=metric.latest_at, health_status=health_status, now=now
    )


def reading_of(
    metric: Metric,
    *,
    value: float | None,
    at: dt.datetime | None,
    health_status: str | None,
    now: dt.datetime | None = None,
) -> MetricReading:
    """A reading from the live columns alone; `metric` supplies thresholds and intervals.

    The status is the evaluated one (MetricHealth); a metric whose samples were recorded
    without an evaluation yet takes the status its latest value stands for.
    """
    if health_status is not None:
        status = ComponentStatus(health_status)
    else:
        status = None if value is None else metric.status_for(value)
    no_data = _is_stale(metric, at, now or timezone.now())
    return MetricReading(
        metric=metric,
        value=None if no_data else value,
        at=at,
        status=None if no_data else status,
        no_data=no_data,
    )


def lateness(reading: MetricReading) -> float | None:
    """How far a fresh latency value is past its degraded threshold (None when it is not)."""
    metric = reading.metric
    if reading.no_data or reading.value is None or not can_be_late(metric):
        return None
    return None if reading.value < metric.degraded_threshold else reading.value - metric.degraded_threshold


def can_be_late(metric: Metric) -> bool:
    """A latency metric with a degraded threshold: its component can be "up, but late"."""
    return (
        metric.kind == MetricKind.LATENCY and metric.degraded_threshold is not None and metric.higher_is_worse
    )
