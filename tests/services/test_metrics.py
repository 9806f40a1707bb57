import datetime as dt
import random

import pytest
from django.core.exceptions import ValidationError

from incidents.metrics import rollups
from incidents.models import Metric, Rollup, Sample
from incidents.services.metrics import record_sample


def test_thresholds_out_of_order_are_refused(component):
    metric = Metric(
        component=component,
        slug="delay",
        name={"en": "Delay"},
        degraded_threshold=900,
        partial_outage_threshold=300,
        major_outage_threshold=1200,
    )
    with pytest.raises(ValidationError) as error:
        metric.full_clean()
    assert "partial_outage_threshold" in error.value.message_dict
    assert "must be below" in error.value.message_dict["partial_outage_threshold"][0]


def test_thresholds_map_values_to_statuses(latency_metric):
    assert latency_metric.status_for(1.8) == "operational"
    assert latency_metric.status_for(60) == "degraded_performance"
    assert latency_metric.status_for(301) == "partial_outage"
    assert latency_metric.status_for(1380) == "major_outage"


@pytest.mark.parametrize("value", [-1.0, float("nan"), float("inf"), 1e20])
def test_impossible_samples_are_refused_and_nothing_is_stored(latency_metric, value):
    with pytest.raises(ValidationError):
        record_sample(latency_metric, value=value)
    assert not Sample.objects.exists() and not Rollup.objects.exists()


def test_samples_roll_up_by_minute_hour_and_day(latency_metric, at):
    rng = random.Random(3)
    values = [rng.lognormvariate(0.5, 0.8) for _ in range(300)]
    for i, value in enumerate(values):
        record_sample(latency_metric, value=value, at=at + dt.timedelta(seconds=10 * i))
    record_sample(latency_metric, value=None, outcome="timeout", at=at + dt.timedelta(seconds=3001))

    hour = Rollup.objects.get(metric=latency_metric, resolution="hour", bucket_start=at.replace(minute=0))
    day = Rollup.objects.get(metric=latency_metric, resolution="day")
    for rollup, expected in (
        (hour, [v for i, v in enumerate(values) if (at + dt.timedelta(seconds=10 * i)).hour == 9]),
        (day, values),
    ):
        assert rollup.count - rollup.failures == len(expected)
        assert rollup.minimum == pytest.approx(min(expected))
        assert rollup.maximum == pytest.approx(max(expected))
        assert rollup.total == pytest.approx(sum(expected))
        assert rollup.p95 == pytest.approx(rollups.exact_quantile(expected, 0.95), rel=0.011)
    assert day.failures == 1
    assert Rollup.objects.filter(resolution="minute").count() == 51
    latency_metric.refresh_from_db()
    assert latency_metric.latest_value is None and latency_metric.latest_at == at + dt.timedelta(seconds=3001)


def test_a_late_arriving_older_sample_leaves_the_latest_figure_alone(latency_metric, at):
    record_sample(latency_metric, value=80.0, at=at + dt.timedelta(minutes=5))
    record_sample(latency_metric, value=20.0, at=at)
    assert (latency_metric.latest_value, latency_metric.latest_at) == (80.0, at + dt.timedelta(minutes=5))
    latency_metric.refresh_from_db()
    assert (latency_metric.latest_value, latency_metric.latest_at) == (80.0, at + dt.timedelta(minutes=5))
    assert Sample.objects.filter(metric=latency_metric).count() == 2


def test_sketches_merge_like_the_union_of_their_values():
    rng = random.Random(5)
    a = [rng.uniform(0.1, 50) for _ in range(500)]
    b = [rng.uniform(20, 900) for _ in range(200)]
    merged = rollups.merge(rollups_of(a), rollups_of(b))
    assert rollups.quantile(merged, 0.95) == pytest.approx(rollups.exact_quantile(a + b, 0.95), rel=0.011)


def rollups_of(values):
    sketch = {}
    for value in values:
        rollups.add(sketch, value)
    return sketch
