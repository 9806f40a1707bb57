"""What readers see of a metric measured from several regions: each region's figures on the
component page, the quorum's figure on the overview and, when the regions differ, how many agree."""

import re

import pytest

from incidents.models import Metric, Probe, ProbeKind
from tests.regions import make_regions, measure_from_regions, probe_in_regions

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    html = re.sub(r'<span class="icon" data-icon="([^"]*)"[^>]*></span>', r"\1", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def region_table(client, slug="webhooks") -> str:
    html = client.get(f"/components/{slug}/").content.decode()
    match = re.search(r'<div class="region-figures".*?</table>', html, re.S)
    return text(match.group(0)) if match else ""


@pytest.fixture
def latency(component):
    return Metric.objects.create(
        component=component,
        slug="api-latency",
        name={"en": "API latency", "ru": "Задержка API"},
        unit="ms",
        precision=0,
        aggregation="latest",
        window=1,
        expected_interval=60,
        degraded_threshold=300,
        partial_outage_threshold=1000,
        major_outage_threshold=5000,
    )


@pytest.fixture
def regional(latency):
    probe_in_regions(latency, make_regions().values())
    return latency


def test_component_page_shows_each_regions_latest_value_and_verdict(client, regional):
    measure_from_regions(regional, {"eu-north": 120, "us-east": 340, "ap-south": 130})

    table = region_table(client)

    assert table.startswith("API latency by region Region Latest p95 Verdict")
    assert "ap-south 130 ms 130 ms ✓ Operational" in table
    assert "eu-north 120 ms 120 ms ✓ Operational" in table
    assert "us-east 340 ms 340 ms" in table and "Degraded performance" in table


def test_a_silent_region_says_no_data_rather_than_an_old_figure(client, regional):
    measure_from_regions(regional, {"eu-north": 120, "us-east": 340})

    table = region_table(client)

    assert "ap-south ∅ no data: not reporting" in table
    assert "eu-north 120 ms" in table


def test_figures_are_written_in_the_readers_language(client, regional):
    measure_from_regions(regional, {"eu-north": 1234, "us-east": 1250, "ap-south": 1240})

    html = client.get("/ru/components/webhooks/").content.decode()

    assert "Задержка API по регионам" in text(html)
    assert re.search(r"eu-north 1,2\s?(с|сек)", text(html)), text(html)


def test_a_metric_measured_from_one_place_shows_no_regions(client, latency, settings):
    Probe.objects.create(metric=latency, name="push", kind=ProbeKind.PUSH)
    make_regions()

    html = client.get("/components/webhooks/").content.decode()

    assert "region-figures" not in html and "by region" not in html


def test_a_single_region_install_shows_no_region_table(client, latency):
    Probe.objects.create(metric=latency, name="http", kind=ProbeKind.HTTP, url="https://api.example/")

    html = client.get("/components/webhooks/").content.decode()

    assert "region-figures" not in html and "regions agree" not in html


def test_overview_says_how_many_regions_agree_when_they_differ(client, regional):
    measure_from_regions(regional, {"eu-north": 120, "us-east": 130, "ap-south": 900})

    page = text(client.get("/").content.decode())

    assert "2 of 3 regions agree" in page


def test_overview_says_nothing_of_regions_when_they_all_agree(client, regional):
    measure_from_regions(regional, {"eu-north": 120, "us-east": 130, "ap-south": 140})

    page = client.get("/").content.decode()

    assert "regions agree" not in page and "agreement" not in page


def test_overview_shows_the_figure_the_quorum_decided_on(client, regional):
    measure_from_regions(regional, {"eu-north": 120, "us-east": 900, "ap-south": 950})

    page = text(client.get("/").content.decode())

    # Two regions past 300 ms: the quorum says degraded, with the second worst region's figure.
    assert "900 ms" in page and "2 of 3 regions agree" in page
