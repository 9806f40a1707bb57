"""Regions through /api/v1/: each region's figures beside a metric's live figure, a probe's
regions written by name, and the Statuspage format left as it was."""

import pytest
import yaml
from django.core.management import call_command

from incidents.models import AuditEvent, Metric, Probe, ProbeKind
from tests.regions import make_regions, measure_from_regions, probe_in_regions

pytestmark = [pytest.mark.django_db, pytest.mark.page_per_test]


@pytest.fixture
def writer(client_as):
    return client_as("write_token")


@pytest.fixture
def latency(component):
    return Metric.objects.create(
        component=component,
        slug="api-latency",
        name={"en": "API latency"},
        unit="ms",
        aggregation="latest",
        window=1,
        degraded_threshold=300,
    )


@pytest.fixture
def regional(latency):
    probe_in_regions(latency, make_regions().values())
    return latency


def test_a_metric_lists_each_regions_figures_and_how_many_agree(client_as, regional):
    measure_from_regions(regional, {"eu-north": 120, "us-east": 900})

    body = client_as("viewer").get(f"/api/v1/metrics/{regional.pk}/").json()

    assert (body["regions_reporting"], body["regions_agreeing"]) == (2, 1)
    by_name = {row["name"]: row for row in body["regions"]}
    assert list(by_name) == ["ap-south", "eu-north", "us-east"]
    assert by_name["eu-north"]["latest"] == 120 and by_name["eu-north"]["p95"] == 120
    assert (by_name["eu-north"]["status"], by_name["eu-north"]["reporting"]) == ("operational", True)
    assert by_name["us-east"]["status"] == "degraded_performance"
    assert by_name["eu-north"]["tick_at"].endswith("Z") or by_name["eu-north"]["tick_at"].endswith("+00:00")
    assert by_name["ap-south"] == {
        "name": "ap-south",
        "latest": None,
        "p95": None,
        "status": None,
        "reporting": False,
        "tick_at": None,
    }


def test_the_metric_list_reads_regions_in_a_fixed_number_of_queries(
    client_as, regional, component, django_assert_max_num_queries
):
    measure_from_regions(regional, {"eu-north": 120, "us-east": 130, "ap-south": 140})
    for n in range(5):
        other = Metric.objects.create(component=component, slug=f"m{n}", name={"en": f"M{n}"})
        probe_in_regions(other, [])
    client = client_as("viewer")
    with django_assert_max_num_queries(12):
        rows = client.get("/api/v1/metrics/").json()["results"]
    assert {len(row["regions"]) for row in rows} == {3}


def test_a_metric_measured_from_one_place_has_no_regions(client_as, latency):
    body = client_as("viewer").get(f"/api/v1/metrics/{latency.pk}/").json()

    assert (body["regions"], body["regions_reporting"], body["regions_agreeing"]) == ([], None, None)


def http_probe(metric, **fields):
    return {
        "name": "Latency",
        "kind": "http",
        "metric": metric.pk,
        "url": "http://93.184.216.34/health",
        "interval": 30,
        "timeout": 5,
        **fields,
    }


def test_a_probe_is_given_regions_by_name_and_the_audit_trail_says_so(writer, latency):
    make_regions()

    created = writer.post(
        "/api/v1/probes/", http_probe(latency, regions=["us-east", "eu-north"]), format="json"
    )

    assert created.status_code == 201, created.content
    assert sorted(created.json()["regions"]) == ["eu-north", "us-east"]
    probe = Probe.objects.get(public_id=created.json()["id"])
    assert sorted(probe.regions.values_list("name", flat=True)) == ["eu-north", "us-east"]

    changed = writer.patch(f"/api/v1/probes/{probe.public_id}/", {"regions": []}, format="json")

    assert changed.status_code == 200 and changed.json()["regions"] == []
    event = AuditEvent.objects.filter(action="probe.changed", subject_id=str(probe.pk)).get()
    assert (event.before["regions"], event.after["regions"]) == (["eu-north", "us-east"], [])


def test_a_probe_left_without_regions_in_a_write_keeps_them(writer, latency):
    regions = make_regions()
    probe = Probe.objects.create(metric=latency, name="p", kind=ProbeKind.HTTP, url="http://93.184.216.34/")
    probe.regions.set([regions["eu-north"]])

    response = writer.patch(f"/api/v1/probes/{probe.public_id}/", {"interval": 40}, format="json")

    assert response.status_code == 200 and response.json()["regions"] == ["eu-north"]


def test_an_unknown_region_is_refused_naming_the_field(writer, latency):
    make_regions()

    response = writer.post("/api/v1/probes/", http_probe(latency, regions=["mars-1"]), format="json")

    assert response.status_code == 400
    assert "regions" in response.json()
    assert not Probe.objects.exists()


def test_the_schema_documents_the_regional_fields(tmp_path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    schemas = yaml.safe_load(target.read_text())["components"]["schemas"]

    metric = schemas["Metric"]["properties"]
    assert {"regions", "regions_reporting", "regions_agreeing"} <= metric.keys()
    assert metric["regions"]["readOnly"] is True
    figure = schemas["RegionFigure"]["properties"]
    assert set(figure) == {"name", "latest", "p95", "status", "reporting", "tick_at"}
    assert schemas["Probe"]["properties"]["regions"]["type"] == "array"


def test_the_statuspage_format_shows_no_regions(client, regional):
    measure_from_regions(regional, {"eu-north": 120, "us-east": 900, "ap-south": 130})

    rows = client.get("/api/v2/components.json").json()["components"]
    [component] = [row for row in rows if row.get("x_metrics")]

    assert set(component["x_metrics"][0]) == {
        "id", "name", "unit", "aggregation", "value", "measured_at", "age_seconds", "p95", "window",
        "status", "no_data",
    }  # fmt: skip
