"""update_many writes each row's own values, of every field type, as bulk_update would."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from incidents.models import Metric, Rollup
from incidents.services.bulk import update_many

START = dt.datetime(2026, 3, 1, tzinfo=dt.UTC)


@pytest.fixture
def rollups(latency_metric):
    return [
        Rollup.objects.create(
            metric=latency_metric, resolution="minute", bucket_start=START + dt.timedelta(minutes=i)
        )
        for i in range(3)
    ]


@pytest.mark.django_db
def test_each_row_gets_its_own_numbers_nulls_and_json(rollups):
    for i, rollup in enumerate(rollups):
        rollup.count, rollup.total = i + 1, 0.5 * i
        rollup.minimum = None if i == 1 else float(i)
        rollup.sketch = {"bins": {str(i): i}, "zero": i == 0}
    update_many(Rollup, rollups, ["count", "total", "minimum", "sketch"])
    stored = list(Rollup.objects.order_by("bucket_start").values("count", "total", "minimum", "sketch"))
    assert stored == [
        {"count": 1, "total": 0.0, "minimum": 0.0, "sketch": {"bins": {"0": 0}, "zero": True}},
        {"count": 2, "total": 0.5, "minimum": None, "sketch": {"bins": {"1": 1}, "zero": False}},
        {"count": 3, "total": 1.0, "minimum": 2.0, "sketch": {"bins": {"2": 2}, "zero": False}},
    ]


@pytest.mark.django_db
def test_times_are_stored_as_instants_and_other_rows_are_untouched(latency_metric, make_component):
    other = Metric.objects.create(
        component=make_component("other"), slug="other", name={"en": "Other"}, unit="ms"
    )
    latency_metric.latest_value, latency_metric.latest_at = 12.5, START + dt.timedelta(hours=3)
    update_many(Metric, [latency_metric], ["latest_value", "latest_at"])
    latency_metric.refresh_from_db()
    other.refresh_from_db()
    assert (latency_metric.latest_value, latency_metric.latest_at) == (12.5, START + dt.timedelta(hours=3))
    assert (other.latest_value, other.latest_at) == (None, None)


@pytest.mark.django_db
def test_more_rows_than_one_statement_takes_are_all_written(latency_metric):
    many = Rollup.objects.bulk_create(
        Rollup(metric=latency_metric, resolution="minute", bucket_start=START + dt.timedelta(minutes=i))
        for i in range(1200)
    )
    for i, rollup in enumerate(many):
        rollup.count = i
    with CaptureQueriesContext(connection) as queries:
        update_many(Rollup, many, ["count"])
    assert sorted(Rollup.objects.values_list("count", flat=True)) == list(range(1200))
    assert len(queries) < 10, "rows go in a few statements, not one per row"


@pytest.mark.django_db
def test_unless_later_leaves_rows_holding_a_later_time_and_says_which_it_wrote(
    latency_metric, make_component
):
    later = Metric.objects.create(
        component=make_component("later"),
        slug="later",
        name={"en": "Later"},
        unit="ms",
        latest_value=1.0,
        latest_at=START + dt.timedelta(hours=5),
    )
    latency_metric.latest_value, latency_metric.latest_at = 12.5, START + dt.timedelta(hours=3)
    late = Metric(pk=later.pk, latest_value=99.0, latest_at=START + dt.timedelta(hours=3))
    written = update_many(
        Metric, [latency_metric, late], ["latest_value", "latest_at"], unless_later="latest_at"
    )
    later.refresh_from_db()
    latency_metric.refresh_from_db()
    assert written == {latency_metric.pk}
    assert (later.latest_value, later.latest_at) == (1.0, START + dt.timedelta(hours=5))
    assert latency_metric.latest_value == 12.5


@pytest.mark.django_db
def test_unless_later_must_name_a_written_field(latency_metric):
    with pytest.raises(ValueError, match="latest_at"):
        update_many(Metric, [latency_metric], ["latest_value"], unless_later="latest_at")
