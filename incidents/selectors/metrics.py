"""Reads of metric values: rollup series, hourly values and the samples a status looks at."""

import datetime as dt
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, cast

from django.db.models import F, QuerySet, Window
from django.db.models.functions import RowNumber
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
    """Each metric's last `window` successful sample values, in one query the (metric, -at) index serves."""
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
            values[metric_id].append(cast(float, value))  # the query leaves out failed samples
    return values
