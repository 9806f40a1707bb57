"""The demo's synthetic measurements: 90 days of a metric's history, written as the rollups and
samples probes would have left, with values raised past the thresholds while an incident held
the component in a worse status, or following the figures an incident's texts quote."""

import datetime as dt
import random
from bisect import bisect_right
from collections import Counter
from typing import NamedTuple

from incidents.metrics import rollups
from incidents.models import ComponentStatus, Metric, Outcome, Resolution, Rollup, Sample
from incidents.services.bulk import insert_many
from incidents.services.metrics import bucket_start

HISTORY_DAYS = 90


class FigureCurve(NamedTuple):
    """What a metric measured during an incident, as its texts quote it: the figures at their
    times (in order), joined by straight lines and held at the last until `end`."""

    points: list[tuple[dt.datetime, float]]
    end: dt.datetime

    def value_at(self, at: dt.datetime) -> float | None:
        """The figure at `at`, or None outside the curve."""
        if not self.points or at < self.points[0][0] or at >= self.end:
            return None
        index = bisect_right(self.points, at, key=lambda point: point[0]) - 1
        start, low = self.points[index]
        if index + 1 == len(self.points):
            return low
        stop, high = self.points[index + 1]
        return low + (high - low) * (at - start) / (stop - start)

    def peak_until(self, at: dt.datetime) -> float:
        """The highest figure up to `at` ("the delay peaked at 31 minutes")."""
        return max(value for when, value in self.points if when <= at)


CURVE_NOISE = 0.03  # between the quoted figures, a curve's values wander by up to 3 %


def _window_target(metric: Metric, status: str) -> float | None:
    return {
        ComponentStatus.DEGRADED_PERFORMANCE: metric.degraded_threshold,
        ComponentStatus.PARTIAL_OUTAGE: metric.partial_outage_threshold,
        ComponentStatus.MAJOR_OUTAGE: metric.major_outage_threshold,
    }.get(status)


def _hour_values(
    metric, spec, windows, hour: dt.datetime, now: dt.datetime, rng, curves: list[FigureCurve] = ()
) -> list[float]:
    """One synthetic measurement a minute: noise around the baseline, raised past the
    threshold of the status an incident put the component in; where an incident's texts
    quote the metric, its figures (exactly at the quoted times)."""
    baseline, noise = spec["baseline"], spec.get("noise", spec["baseline"] * 0.1)
    ceiling = 100.0 if metric.kind == "ratio" else float("inf")
    minutes = min(60, int((now - hour).total_seconds() // 60) + 1)
    gauss = rng.gauss
    # 1.5 million values: most hours lie outside every incident and skip the per-minute checks.
    end = hour + dt.timedelta(minutes=minutes)
    active = [(target, start, stop) for target, start, stop in windows if start < end and stop > hour]
    drawn = [curve for curve in curves if curve.points[0][0] < end and curve.end > hour]
    if not active and not drawn:
        return [min(max(0.0, gauss(baseline, noise)), ceiling) for _minute in range(minutes)]
    values = []
    for minute in range(minutes):
        at = hour + dt.timedelta(minutes=minute)
        value = max(0.0, gauss(baseline, noise))
        for target, start, stop in active:
            if start <= at < stop:
                value = max(value, target * rng.uniform(1.05, 1.4))
        for curve in drawn:
            figure = curve.value_at(at)
            if figure is not None:
                quoted = any(when == at for when, _value in curve.points)
                value = figure if quoted else figure * rng.uniform(1 - CURVE_NOISE, 1 + CURVE_NOISE)
        values.append(min(value, ceiling))
    return values


def write_metric_history(
    metric: Metric,
    spec: dict,
    windows,
    *,
    now: dt.datetime,
    rng: random.Random,
    curves: list[FigureCurve] = (),
) -> None:
    """90 days of hourly and daily rollups, a day of minute rollups and raw samples, around the
    spec's baseline and raised where an incident in `windows` put the metric's component, or
    along the metric's `curves` (the figures incidents quote)."""
    own_windows = [
        (target, start, end)
        for incident_windows in windows
        for component_id, status, start, end in incident_windows
        if component_id == metric.component_id and (target := _window_target(metric, status))
    ]
    first_day = bucket_start(now - dt.timedelta(days=HISTORY_DAYS - 1), Resolution.DAY)
    days: dict[dt.datetime, dict] = {}
    hourly, minutes, samples = [], [], []
    hour = first_day
    recent_from = now - dt.timedelta(days=1)
    while hour <= now:
        values = _hour_values(metric, spec, own_windows, hour, now, rng, curves)
        rollup = _rollup_of(metric, Resolution.HOUR, hour, values)
        hourly.append(rollup)
        day_start = bucket_start(hour, Resolution.DAY)
        day = days.get(day_start)
        if day is None:
            day = days[day_start] = _rollup_of(metric, Resolution.DAY, day_start, [])
        _merge(day, rollup)
        hour += dt.timedelta(hours=1)
        if hour <= recent_from:
            continue  # only the last day keeps minutes and raw samples
        for minute, value in enumerate(values):
            at = rollup["bucket_start"] + dt.timedelta(minutes=minute)
            if at >= recent_from:
                minutes.append(_rollup_of(metric, Resolution.MINUTE, at, [value]))
                samples.append({"metric": metric.pk, "at": at, "value": value, "outcome": Outcome.OK})
    for day in days.values():
        day["p95"] = rollups.p95(day["sketch"], minimum=day["minimum"], maximum=day["maximum"])
    insert_many(Rollup, [*hourly, *days.values(), *minutes])
    insert_many(Sample, samples)
    if samples:
        latest = samples[-1]
        Metric.objects.filter(pk=metric.pk).update(latest_value=latest["value"], latest_at=latest["at"])


def _rollup_of(metric: Metric, resolution: Resolution, start: dt.datetime, values: list[float]) -> dict:
    sketch = dict(Counter(map(rollups.bucket_of, values)))
    return {
        "metric": metric.pk,
        "resolution": resolution,
        "bucket_start": start,
        "count": len(values),
        "minimum": min(values, default=None),
        "maximum": max(values, default=None),
        "total": sum(values),
        "sketch": sketch,
        "p95": rollups.p95(sketch, minimum=min(values, default=None), maximum=max(values, default=None)),
    }


def _merge(into: dict, part: dict) -> None:
    into["count"] += part["count"]
    into["minimum"] = part["minimum"] if into["minimum"] is None else min(into["minimum"], part["minimum"])
    into["maximum"] = part["maximum"] if into["maximum"] is None else max(into["maximum"], part["maximum"])
    into["total"] += part["total"]
    rollups.merge(into["sketch"], part["sketch"])
