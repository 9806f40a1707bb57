"""Importing a metric's history through /api/v1/metrics/<id>/samples/import/."""

import datetime as dt
import json

import pytest

from incidents.models import AuditEvent, Resolution, Rollup, Sample
from incidents.selectors import metric_series
from incidents.services.probes import prune_old_data
from tests.conftest import database_rows
from tests.hostile.conftest import assert_api_refused

START = dt.datetime(2018, 7, 13, 10, 0, tzinfo=dt.UTC)


def day_of_samples() -> list[dict]:
    """One sample a minute over a day of 2018; the delay climbs to 1,380 s (23 min) at 11:23."""
    samples = []
    for minute in range(1440):
        at = START + dt.timedelta(minutes=minute)
        value = 1380.0 if minute == 83 else 2.0 + minute % 7
        samples.append({"at": at.isoformat().replace("+00:00", "Z"), "value": value})
    return samples


def url(metric) -> str:
    return f"/api/v1/metrics/{metric.pk}/samples/import/"


def rollup_rows(metric) -> list[tuple]:
    return list(
        Rollup.objects.filter(metric=metric)
        .order_by("resolution", "bucket_start")
        .values_list("resolution", "bucket_start", "count", "minimum", "maximum", "total", "p95")
    )


@pytest.mark.django_db
def test_a_day_of_2018_is_imported_into_the_rollups_and_a_second_import_counts_nothing_twice(page, client_as):
    metric = page["metric"]
    writer = client_as("write_token")
    response = writer.post(url(metric), {"samples": day_of_samples()}, format="json")
    assert response.status_code == 200, response.content
    assert response.json() == {"imported": 1440, "skipped": 0}
    assert Sample.objects.filter(metric=metric, imported=True).count() == 1440

    hourly = metric_series(
        [metric], resolution=Resolution.HOUR, since=START, until=START + dt.timedelta(days=1)
    )
    assert len(hourly[metric.pk]) == 24
    daily = Rollup.objects.get(metric=metric, resolution=Resolution.DAY, bucket_start=START.replace(hour=0))
    assert daily.maximum == 1380.0
    minute = Rollup.objects.get(
        metric=metric, resolution=Resolution.MINUTE, bucket_start=START + dt.timedelta(minutes=83)
    )
    assert (minute.count, minute.maximum) == (1, 1380.0)
    before = rollup_rows(metric)

    again = writer.post(url(metric), {"samples": day_of_samples()}, format="json")
    assert again.json() == {"imported": 0, "skipped": 1440}
    assert rollup_rows(metric) == before
    assert Sample.objects.filter(metric=metric, imported=True).count() == 1440

    # The samples API shows them as imported; the live value is not moved back to 2018.
    listed = writer.get("/api/v1/samples/", {"metric": metric.pk, "before": "2019-01-01T00:00:00Z"}).json()
    assert all(row["imported"] for row in listed["results"])
    metric.refresh_from_db()
    assert metric.latest_at.year > 2018


@pytest.mark.django_db
def test_an_import_is_one_audit_event_naming_the_count(page, client_as):
    metric = page["metric"]
    client_as("write_token").post(url(metric), {"samples": day_of_samples()}, format="json")
    event = AuditEvent.objects.get(action="samples.imported")
    assert event.after["summary"] == f"imported 1,440 samples for {metric}"
    assert event.subject_id == str(metric.pk) or event.subject_id == metric.pk


@pytest.mark.django_db
def test_pruning_keeps_imported_samples_and_their_rollups(page, client_as):
    metric = page["metric"]
    client_as("write_token").post(url(metric), {"samples": day_of_samples()[:10]}, format="json")
    before = rollup_rows(metric)
    prune_old_data()
    assert Sample.objects.filter(metric=metric, imported=True).count() == 10
    assert rollup_rows(metric) == before


def hostile_bodies():
    good = {"at": "2018-07-13T10:00:00Z", "value": 1.0}
    yield "nan", {"samples": [good, {"at": "2018-07-13T10:01:00Z", "value": "NaN"}]}, "1"
    yield "string value", {"samples": [good, {"at": "2018-07-13T10:01:00Z", "value": "12"}]}, "value"
    yield "boolean value", {"samples": [{"at": "2018-07-13T10:01:00Z", "value": True}]}, "value"
    yield "null value", {"samples": [{"at": "2018-07-13T10:01:00Z", "value": None}]}, "value"
    yield "negative latency", {"samples": [{"at": "2018-07-13T10:01:00Z", "value": -1}]}, "value"
    yield "before 1970", {"samples": [good, {"at": "1969-12-31T23:59:00Z", "value": 1}]}, "at"
    yield "future", {"samples": [{"at": "2999-01-01T00:00:00Z", "value": 1}]}, "at"
    yield "no zone", {"samples": [{"at": "2018-07-13T10:01:00", "value": 1}]}, "at"
    yield "year 10000", {"samples": [{"at": "10000-01-01T00:00:00Z", "value": 1}]}, "at"
    yield "unknown field", {"samples": [{**good, "source": "x"}]}, "source"
    yield "unknown top field", {"samples": [good], "metric": 3}, "metric"
    yield "empty", {"samples": []}, "samples"
    yield "not a list", {"samples": {"at": "x"}}, "samples"
    yield "same instant twice", {"samples": [good, dict(good)]}, "at"
    yield (
        "too many",
        {"samples": [{"at": "2018-07-13T10:00:00Z", "value": 1}] * 10_001},
        "samples",
    )


@pytest.mark.django_db
@pytest.mark.parametrize(("body", "field"), [pytest.param(b, f, id=i) for i, b, f in hostile_bodies()])
def test_bad_imports_are_refused_naming_the_sample_and_nothing_is_written(page, client_as, body, field):
    metric = page["metric"]
    writer = client_as("write_token")
    rows = database_rows()
    response = writer.post(url(metric), body, format="json")
    assert_api_refused(response, field)
    assert database_rows() == rows


@pytest.mark.django_db
def test_a_refusal_names_the_index_of_the_bad_sample(page, client_as):
    samples = day_of_samples()[:5]
    samples[3]["at"] = "1969-01-01T00:00:00Z"
    response = client_as("write_token").post(url(page["metric"]), {"samples": samples}, format="json")
    assert response.status_code == 400
    assert list(response.json()["samples"]) == ["3"]
    assert "at" in response.json()["samples"]["3"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "raw", ['{"samples": [{"at": "2018-07-13T10:00:00Z", "value": Infinity}]}', "[" * 100 + "]" * 100]
)
def test_infinity_and_deep_json_are_refused(page, client_as, raw):
    writer = client_as("write_token")
    rows = database_rows()
    response = writer.post(url(page["metric"]), raw, content_type="application/json")
    assert response.status_code == 400, response.content
    assert database_rows() == rows


@pytest.mark.django_db
def test_a_read_only_token_cannot_import(page, client_as):
    reader = client_as("read_token")
    rows = database_rows()
    body = {"samples": day_of_samples()[:2]}
    assert reader.post(url(page["metric"]), body, format="json").status_code == 403
    assert database_rows() == rows


@pytest.mark.django_db
def test_the_import_is_in_the_openapi_schema(client_as):
    schema = client_as("admin").get("/api/schema/", {"format": "json"})
    paths = json.loads(schema.content)["paths"]
    operation = paths["/api/v1/metrics/{id}/samples/import/"]["post"]
    assert {"200", "400", "401", "403", "404"} <= set(operation["responses"])
