"""/metrics as Prometheus reads it: strict text format, figures that follow what happened, the
counters of other processes added up, and an optional bearer token."""

import datetime as dt
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident
from incidents.models import BreakerState, CircuitBreaker, Delivery, Subscriber
from incidents.telemetry import instruments

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent.parent
REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"


def scrape(client, **headers) -> dict[tuple[str, tuple], float]:
    response = client.get("/metrics", **headers)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"].startswith("text/plain; version=")
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_the_outbox_depth_and_age_per_channel_are_read_at_scrape_time(client, make_component):

    for n in range(3):
        Subscriber.objects.create(email=f"r{n}@example.com", language="en", confirmed_at=timezone.now())
    component = make_component("api")
    declare_incident(
        DeclareIncident(
            title="Slow", language="en", body="Slow.", component_statuses={component: "degraded_performance"}
        ),
        actor=None,
    )
    Delivery.objects.update(created_at=timezone.now() - dt.timedelta(seconds=90))

    samples = scrape(client)

    assert value(samples, "statuspage_outbox_depth", channel="email") == 3
    assert 89 <= value(samples, "statuspage_outbox_oldest_age_seconds", channel="email") < 200
    assert value(samples, "statuspage_database_up") == 1

    Delivery.objects.update(state="sent", sent_at=timezone.now())
    assert value(scrape(client), "statuspage_outbox_depth", channel="email") == 0


def test_open_circuit_breakers_are_counted_by_state(client):
    CircuitBreaker.objects.create(target="http://a.example/", state=BreakerState.OPEN)
    CircuitBreaker.objects.create(target="http://b.example/", state=BreakerState.OPEN)
    CircuitBreaker.objects.create(target="http://c.example/", state=BreakerState.CLOSED)

    samples = scrape(client)

    assert value(samples, "statuspage_circuit_breakers", state="open") == 2
    assert value(samples, "statuspage_circuit_breakers", state="closed") == 1
    assert value(samples, "statuspage_circuit_breakers", state="half_open") == 0


def test_page_cache_hits_and_renders_are_counted(client, settings, make_component):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 60
    make_component("api")
    before = scrape(client)

    client.get("/uptime/")
    client.get("/uptime/")
    client.get("/uptime/")
    after = scrape(client)

    renders = value(after, "statuspage_page_cache_requests_total", outcome="render") - value(
        before, "statuspage_page_cache_requests_total", outcome="render"
    )
    hits = value(after, "statuspage_page_cache_requests_total", outcome="hit") - value(
        before, "statuspage_page_cache_requests_total", outcome="hit"
    )
    assert renders == 1 and hits == 2


def test_renders_are_counted_by_page_and_a_change_renders_again(
    client, settings, make_component, admin, django_capture_on_commit_callbacks
):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 60
    make_component("api")
    before = scrape(client)

    for _ in range(2):
        client.get("/uptime/")
        client.get("/api/v2/summary.json")
    with django_capture_on_commit_callbacks(execute=True):  # a change readers see
        declare_incident(
            DeclareIncident(title="Slow search", language="en", body="Looking into it."), actor=admin
        )
    client.get("/uptime/")
    after = scrape(client)

    def rendered(page):
        return value(after, "statuspage_page_renders_total", page=page) - value(
            before, "statuspage_page_renders_total", page=page
        )

    assert rendered("uptime") == 2
    assert rendered("v2-summary") == 1


def test_a_count_made_in_another_process_shows_in_the_scrape(client):
    """Probe runs end in the worker, scrapes reach the web: multiprocess mode adds them up."""
    before = value(scrape(client), "statuspage_probe_runs_total", kind="scrape", outcome="timeout")
    code = (
        "import django; django.setup();"
        "from incidents.telemetry import instruments;"
        "instruments.count_probe_run(kind='scrape', outcome='timeout', scheduled_at=100.0,"
        " started_at=102.5, finished_at=107.5)"
    )
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "statuspage.settings"}
    environment["METRICS_PROCESS_DIR"] = str(settings.METRICS_PROCESS_DIR)
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environment, check=True, timeout=60)

    samples = scrape(client)

    assert value(samples, "statuspage_probe_runs_total", kind="scrape", outcome="timeout") == before + 1
    assert value(samples, "statuspage_probe_lateness_seconds_bucket", kind="scrape", le="5.0") >= 1
    assert value(samples, "statuspage_probe_duration_seconds_count", kind="scrape") >= 1


def test_with_a_token_set_a_scrape_must_bring_it(client, settings):
    settings.METRICS_TOKEN = "s3cret-scrape-token"

    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 401
    refused = client.get("/metrics", HTTP_AUTHORIZATION="Basic czNjcmV0")
    assert refused.status_code == 401 and refused["WWW-Authenticate"].startswith("Bearer")
    assert scrape(client, HTTP_AUTHORIZATION="Bearer s3cret-scrape-token")


def test_writes_are_refused(client):
    assert client.post("/metrics").status_code == 405


def test_every_family_has_help_and_type_and_the_text_passes_promtool(client, tmp_path):
    # A labelled family shows once it has a sample: one of each, as a working platform has.
    instruments.count_deliveries("email", sent=1)
    instruments.count_probe_run(kind="http", outcome="ok", scheduled_at=1.0, started_at=1.2, finished_at=1.5)
    instruments.PAGE_CACHE_REQUESTS.labels(outcome="hit").inc()
    instruments.count_render("overview")
    instruments.INTAKE_ALERTS.labels(source="alertmanager", outcome="firing").inc()
    text = client.get("/metrics").content.decode()
    families = list(text_string_to_metric_families(text))
    ours = [f for f in families if f.name.startswith("statuspage_")]
    assert {f.name for f in ours} >= {
        "statuspage_probe_runs",
        "statuspage_probe_lateness_seconds",
        "statuspage_probe_duration_seconds",
        "statuspage_deliveries",
        "statuspage_page_cache_requests",
        "statuspage_page_renders",
        "statuspage_intake_alerts",
        "statuspage_outbox_depth",
        "statuspage_outbox_oldest_age_seconds",
        "statuspage_circuit_breakers",
        "statuspage_probe_runs_overdue",
        "statuspage_snapshot_age_seconds",
        "statuspage_database_up",
    }
    assert all(f.documentation for f in ours)

    promtool = os.environ.get("PROMTOOL") or shutil.which("promtool") or str(ROOT / "var/tools/promtool")
    if not Path(promtool).is_file():
        reason = "needs promtool: scripts/ci-install-promtool extracts it from Debian's prometheus package"
        if REQUIRE_SERVICES:
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}")
        pytest.skip(reason)
    checked = subprocess.run([promtool, "check", "metrics"], input=text, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_grafana_dashboard_only_asks_for_families_the_endpoint_serves(client):
    import json
    import re

    instruments.count_deliveries("email", sent=1)
    instruments.count_probe_run(kind="http", outcome="ok", scheduled_at=1.0, started_at=1.2, finished_at=1.5)
    instruments.PAGE_CACHE_REQUESTS.labels(outcome="hit").inc()
    instruments.INTAKE_ALERTS.labels(source="grafana", outcome="firing").inc()
    served = {name for name, _labels in scrape(client)}
    dashboard = json.loads((ROOT / "deploy/grafana/statuspage.json").read_text())
    asked = {
        name
        for panel in dashboard["panels"]
        for target in panel["targets"]
        for name in re.findall(r"\bstatuspage_[a-z_]+", target["expr"])
    }
    assert asked and asked <= served, asked - served


def test_a_scrape_without_the_database_says_so_and_still_answers(client, monkeypatch):
    from django.db import OperationalError

    from incidents.telemetry.scrape import DatabaseCollector

    def unreachable(self):
        raise OperationalError("connection refused")

    monkeypatch.setattr(DatabaseCollector, "_outbox", unreachable)

    samples = scrape(client)

    assert value(samples, "statuspage_database_up") == 0
    assert not any(name.startswith("statuspage_outbox") for name, _labels in samples)
    assert ("statuspage_snapshot_age_seconds", ()) in samples
