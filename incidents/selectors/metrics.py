"""Reads of metric values: rollup series, hourly values and the samples a status looks at."""

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connection
from django.db.models import QuerySet
from django.utils import timezone

from incidents.models import Aggregation, Metric, Resolution, Rollup, Sample


def live_metrics() -> QuerySet[Metric]:
    """Metrics in page order with their probe and health (what readings need) in the same query."""
    return Metric.objects.select_related("probe", "health").order_by("position", "slug")


def rollup_value(metric: Metric, row: Mapping[str, Any]) -> float | None:
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


def hour_starts(*, hours: int = 24, now: dt.datetime | None = None) -> list[dt.datetime]:
    """The starts of the last `hours` hours, the current one last: the hours hourly_values gives."""
    now = now or timezone.now()
    first = now.replace(minute=0, second=0, microsecond=0) - dt.timedelta(hours=hours - 1)
    return [first + dt.timedelta(hours=n) for n in range(hours)]


def hourly_values(metrics: Sequence[Metric], *, hours: int = 24) -> dict[int, list[float | None]]:
    """For each metric, one value per hour of the last `hours` hours (None for no data)."""
    now = timezone.now()
    starts = hour_starts(hours=hours, now=now)
    series = metric_series(
        metrics, resolution=Resolution.HOUR, since=starts[0], until=now + dt.timedelta(hours=1)
    )
    by_hour = {metric.pk: dict(series.get(metric.pk, [])) for metric in metrics}
    return {pk: [values.get(start) for start in starts] for pk, values in by_hour.items()}


def metric_window_values(metrics: list[Metric]) -> dict[int, list[float]]:
    """Each metric's last `window` successful sample values, in one query per 200 metrics."""
    values: dict[int, list[float]] = {metric.pk: [] for metric in metrics}
    for first in range(0, len(metrics), WINDOW_METRICS_PER_QUERY):
        chunk = metrics[first : first + WINDOW_METRICS_PER_QUERY]
        with connection.cursor() as cursor:
            cursor.execute(
                " UNION ALL ".join([_WINDOW_PART] * len(chunk)),
                [parameter for metric in chunk for parameter in (metric.pk, metric.window)],
            )
            for metric_id, value in cursor.fetchall():
                values[metric_id].append(value)  # the query leaves out failed samples
    return values


# One seek on the (metric, -at) index per metric, the parts joined by UNION ALL: a window function
# (ROW_NUMBER() over each metric's samples) numbers every sample before keeping the last few, and
# the ORM cannot slice the parts of a compound query on SQLite. SQLite allows 500 parts at most.
WINDOW_METRICS_PER_QUERY = 200
_WINDOW_PART = (
    f"SELECT * FROM (SELECT metric_id, value FROM {Sample._meta.db_table}"
    " WHERE metric_id = %s AND value IS NOT NULL ORDER BY at DESC LIMIT %s) AS metric_window"
)
