"""Status by quorum when each region's results arrive on their own, as they do through the
broker: a tick is weighed region by region, the others' verdicts still those of the tick before."""

import datetime as dt

import pytest
from django.utils import timezone

from incidents.models import ComponentStatus, ComponentStatusChange, Metric, ProbeRegion
from incidents.services.regional_health import RegionReading, evaluate_regions

pytestmark = pytest.mark.django_db

INTERVAL = 10


@pytest.fixture
def metric(make_probe, make_metric, automatic_component, settings):
    settings.PROBE_QUORUM_RECOVERY_TICKS = 3
    settings.PROBE_REGION_MISSED_TICKS = 2
    for name in ("eu-north", "us-east", "ap-south"):
        ProbeRegion.objects.create(name=name)
    measured = make_metric(automatic_component, window=1, expected_interval=INTERVAL)
    make_probe(url="http://127.0.0.1:9/", metric=measured, interval=INTERVAL, timeout=3)
    return Metric.objects.select_related("probe").get(pk=measured.pk)


@pytest.fixture
def tick_at(metric):
    """The time of tick n, from now on: a status change is never dated before the last one."""
    first = timezone.now().replace(microsecond=0) + dt.timedelta(seconds=1)
    return lambda number: first + dt.timedelta(seconds=number * INTERVAL)


def results_of_tick(metric: Metric, tick: dt.datetime, values: list[tuple[str, float | None]]) -> None:
    """Each region's result of one tick, stored one region at a time in the given order (None: the
    run failed)."""
    for region, value in values:
        reading = RegionReading(metric.pk, region, tick + dt.timedelta(seconds=0.1), value, tick)
        evaluate_regions(
            [reading],
            metrics={metric.pk: metric},
            configured={metric.pk: 3},
            now=tick + dt.timedelta(seconds=3.5),
        )


def changes(metric: Metric) -> list[tuple[str, dt.datetime]]:
    rows = ComponentStatusChange.objects.filter(component=metric.component).order_by("pk")
    return [(row.new_status, row.created_at) for row in rows]


def test_recovery_counts_its_first_tick_when_a_still_failing_region_reported_first(metric, tick_at):
    results_of_tick(metric, tick_at(0), [("eu-north", 20), ("us-east", 50), ("ap-south", 80)])
    results_of_tick(metric, tick_at(1), [("eu-north", None), ("us-east", None), ("ap-south", 80)])
    assert changes(metric) == [(ComponentStatus.MAJOR_OUTAGE, tick_at(1))]

    # Restored: ap-south's result arrives first each tick, weighed against the other two regions'
    # failures of tick 1 at tick 2.
    for number in (2, 3):
        results_of_tick(metric, tick_at(number), [("ap-south", 80), ("eu-north", 20), ("us-east", 50)])
    assert len(changes(metric)) == 1  # two good ticks: not yet

    results_of_tick(metric, tick_at(4), [("ap-south", 80), ("eu-north", 20), ("us-east", 50)])
    assert changes(metric)[1:] == [(ComponentStatus.OPERATIONAL, tick_at(2))]
