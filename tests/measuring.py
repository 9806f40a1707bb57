"""Measuring a metric in tests as its probe would: samples stored and evaluated."""

import datetime as dt

from incidents.services.health import evaluate_metrics, group_samples
from incidents.services.metrics import NewSample, record_samples


def measure(metric, values: list[float], *, at: dt.datetime) -> None:
    """Samples a minute apart, the last at `at`, evaluated as probe results are."""
    entries = [
        NewSample(metric, value, at - dt.timedelta(minutes=len(values) - 1 - n))
        for n, value in enumerate(values)
    ]
    record_samples(entries)
    evaluate_metrics(group_samples(entries), now=at)
