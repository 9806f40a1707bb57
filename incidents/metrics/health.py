"""From numbers to status, as pure functions: window figures, thresholds and hysteresis.

A failed or timed-out sample has no value and counts as the worst possible one, so a window
full of failures reads as the metric's most severe status however its thresholds are set.
"""

import datetime as dt
import math
from dataclasses import dataclass

from incidents.metrics.rollups import exact_quantile
from incidents.models import Aggregation, ComponentStatus, Metric

NO_DATA_INTERVALS = 3


def window_figure(metric: Metric, values: list[float | None]) -> float | None:
    """The metric's aggregation over `values` (oldest first), failures read as the worst value."""
    if not values:
        return None
    worst = math.inf if metric.higher_is_worse else -math.inf
    filled = [worst if value is None else value for value in values]
    aggregation = Aggregation(metric.aggregation)
    if aggregation == Aggregation.LATEST:
        return filled[-1]
    if aggregation == Aggregation.MAX:
        return max(filled) if metric.higher_is_worse else min(filled)
    if aggregation == Aggregation.MEAN:
        return sum(filled) / len(filled)
    q = 0.95 if metric.higher_is_worse else 0.05
    return exact_quantile(filled, q)


def status_for_figure(metric: Metric, figure: float) -> ComponentStatus:
    if math.isinf(figure) and metric.thresholds():
        return metric.thresholds()[-1][0]
    return metric.status_for(figure)


@dataclass(frozen=True)
class Step:
    status: ComponentStatus
    good_streak: int


def next_status(
    current: ComponentStatus, observed: ComponentStatus, *, good_streak: int, needed: int
) -> Step:
    """Hysteresis: worse at once, better only after `needed` better evaluations in a row."""
    current, observed = ComponentStatus(current), ComponentStatus(observed)
    if observed.severity >= current.severity:
        return Step(observed, 0)
    streak = good_streak + 1
    if streak >= needed:
        return Step(observed, 0)
    return Step(current, streak)


def merge_recent(recent: list, new: list[tuple[dt.datetime, float | None]], *, window: int) -> list:
    """The newest `window` samples as [iso time, value], oldest first."""
    merged = recent + [[at.isoformat(), value] for at, value in new]
    merged.sort(key=lambda pair: dt.datetime.fromisoformat(pair[0]))
    return merged[-max(window, 1) :]


def stale_after(latest_at: dt.datetime, interval_seconds: int) -> dt.datetime:
    return latest_at + dt.timedelta(seconds=NO_DATA_INTERVALS * interval_seconds)


def describe_figure(metric: Metric, figure: float | None, count: int, status: ComponentStatus) -> str:
    """The sentence an audit event and a draft incident carry: which number caused what."""
    if figure is None:
        shown = "no value"
    elif math.isinf(figure):
        shown = "failed"
    else:
        shown = f"{figure:.{metric.precision}f} {metric.unit}"
    limits = ", ".join(f"{s.label} at {limit:g}" for s, limit in metric.thresholds())
    return (
        f"{metric}: {metric.get_aggregation_display()} of the last {count} samples = {shown}"
        f" → {ComponentStatus(status).label} (thresholds: {limits or 'none'})"
    )
