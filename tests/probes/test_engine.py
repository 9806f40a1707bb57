"""The probe engine in this process, against local targets: what each kind measures, hard
deadlines, and the per-host bound (one slow host cannot take every slot)."""

import json
import threading
import time

import pytest
from django.db import connection

from incidents.models import ComponentStatus, ProbeKind, ProbeRun, RunState
from incidents.probes.engine import ProbeEngine
from incidents.services.probes import claim_runs, dispatch_due_probes

from .conftest import QUICK_WRITES, Targets, cut_where_due, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def engine():
    engine = ProbeEngine(concurrency=50, per_host=50, linger=QUICK_WRITES)
    yield engine
    engine.drain(5)
    engine.stop()


def run_all(engine, *, seconds=15):
    specs = claim_runs(dispatch_due_probes(), worker="test")
    engine.submit(specs)
    wait_for(
        lambda: not ProbeRun.objects.filter(state__in=["pending", "running"]).exists(),
        seconds=seconds,
        message="every run to end",
    )
    return {run.probe.name: run for run in ProbeRun.objects.select_related("probe")}


def test_http_checks_record_latency_and_outcome(engine, make_probe, targets):
    for name, path, config in [
        ("ok", "/ok", {}),
        ("text", "/ok", {"body_contains": "all good"}),
        ("missing text", "/ok", {"body_contains": "nope"}),
        ("server error", "/status/503", {}),
        ("expected 503", "/status/503", {"expected_status": [503]}),
    ]:
        make_probe(url=targets.url(path), config=config, interval=30, timeout=2, name=name)
    runs = run_all(engine)
    assert {name: run.state for name, run in runs.items()} == {
        "ok": RunState.OK,
        "text": RunState.OK,
        "missing text": RunState.FAILED,
        "server error": RunState.FAILED,
        "expected 503": RunState.OK,
    }
    assert 0 < runs["ok"].value < 1000
    assert runs["server error"].detail == "HTTP 503"
    assert runs["ok"].probe.metric.samples.get().value == runs["ok"].value


def test_a_hanging_target_is_cut_at_the_deadline_as_a_timeout(engine, make_probe, targets):
    make_probe(url=targets.url("/hang"), interval=30, timeout=1.5, read_timeout=10, name="hang")
    run = run_all(engine)["hang"]
    assert run.state == RunState.TIMEOUT
    assert cut_where_due(run)
    assert run.probe.metric.samples.get().outcome == "timeout"


def test_connection_refused_is_a_failure(engine, make_probe):
    make_probe(url="http://127.0.0.1:8499/nothing-listens", interval=30, timeout=2, name="refused")
    assert run_all(engine)["refused"].state == RunState.FAILED


def test_one_slow_host_cannot_take_every_slot(make_probe, targets):
    other = Targets()
    try:
        engine = ProbeEngine(concurrency=3, per_host=2)
        for i in range(6):
            make_probe(url=targets.url(f"/slow/1?{i}"), interval=30, timeout=5, name=f"slow {i}")
        make_probe(url=other.url("/ok"), interval=30, timeout=5, name="other host")
        runs = run_all(engine)
        engine.drain(5)
        engine.stop()
    finally:
        other.close()
    assert targets.peak == 2
    assert all(run.state == RunState.OK for run in runs.values())
    quick = runs["other host"]
    assert (quick.started_at - quick.scheduled_at).total_seconds() < 0.5


def _stored_held_run(engine, make_probe, targets) -> None:
    """One probe run (timeout 20 s) measured and handed to the writer."""
    make_probe(url=targets.url("/ok"), interval=30, timeout=20, name="held")
    engine.submit(claim_runs(dispatch_due_probes(), worker="test"))
    wait_for(lambda: targets.requests, seconds=5, message="the probe's request")
    # The run's task ends once its result is queued; the writer then holds it in its batch.
    wait_for(lambda: not engine.tasks, seconds=5, message="the run to be measured")


def test_stopping_stores_the_results_held_back_and_leaves_no_thread_behind(make_probe, targets):
    threads_before = set(threading.enumerate())
    # A long linger: without a stop, the writer would hold the result about 20 s.
    engine = ProbeEngine(concurrency=5, per_host=5, linger=60)
    _stored_held_run(engine, make_probe, targets)
    engine.stop()
    run = wait_for(
        lambda: ProbeRun.objects.filter(state=RunState.OK).first(), seconds=3, message="the held result"
    )
    assert run.probe.name == "held"
    wait_for(
        lambda: not set(threading.enumerate()) - threads_before,
        seconds=5,
        message="the engine's threads to end",
    )


def _database_sessions() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return cursor.fetchone()[0]


@pytest.mark.postgres
def test_a_stopped_engine_leaves_no_database_session_open(make_probe, targets):
    """A session left open blocks dropping the database (each stopped engine used to leave the
    writer's)."""
    before = _database_sessions()
    engine = ProbeEngine(concurrency=5, per_host=5, linger=0.1)
    _stored_held_run(engine, make_probe, targets)
    wait_for(lambda: ProbeRun.objects.filter(state=RunState.OK).exists(), seconds=5, message="the result")
    assert _database_sessions() > before  # the writer's session, which the stop must close
    engine.stop()
    wait_for(lambda: _database_sessions() <= before, seconds=5, message="the writer's session to close")


def test_a_prometheus_scrape_reads_the_matching_sample(engine, make_probe, targets, make_metric):
    targets.exposition = (
        "# HELP consumer_lag_seconds Lag.\n# TYPE consumer_lag_seconds gauge\n"
        'consumer_lag_seconds{queue="email"} 1.5\nconsumer_lag_seconds{queue="webhooks"} 42.25\n'
    )
    config = {"format": "prometheus", "metric": "consumer_lag_seconds", "labels": {"queue": "webhooks"}}
    make_probe(
        ProbeKind.SCRAPE, url=targets.url("/metrics"), config=config, interval=30, timeout=2, name="lag"
    )
    missing = {"format": "prometheus", "metric": "consumer_lag_seconds", "labels": {"queue": "sms"}}
    make_probe(
        ProbeKind.SCRAPE, url=targets.url("/metrics"), config=missing, interval=30, timeout=2, name="sms"
    )
    runs = run_all(engine)
    assert runs["lag"].state == RunState.OK and runs["lag"].value == 42.25
    assert runs["sms"].state == RunState.FAILED


def test_an_upstream_summary_is_mirrored(engine, make_probe, make_metric, automatic_component, targets):
    summary = {
        "page": {"id": "x"},
        "status": {"indicator": "major", "description": "Partial System Outage"},
        "components": [{"id": "abc", "name": "API", "status": "major_outage"}],
    }
    targets.exposition = json.dumps(summary)
    metric = make_metric(automatic_component, slug="vendor", unit="count", window=1)
    make_probe(
        ProbeKind.UPSTREAM,
        url=targets.url("/metrics"),
        metric=metric,
        config={"component": "API"},
        interval=30,
        timeout=2,
        name="vendor",
    )
    run = run_all(engine)["vendor"]
    assert run.state == RunState.OK
    automatic_component.refresh_from_db()
    assert automatic_component.status == ComponentStatus.MAJOR_OUTAGE


def test_runs_wait_until_they_are_due(engine, make_probe, targets):
    probe = make_probe(url=targets.url("/ok"), interval=30, timeout=2, name="later", due_now=False)
    probe.__class__.objects.filter(pk=probe.pk).update(
        next_run_at=probe.created_at.__class__.now(tz=probe.created_at.tzinfo)
    )
    start = time.time()
    run = run_all(engine)["later"]
    assert abs(run.started_at.timestamp() - run.scheduled_at.timestamp()) < 0.5
    assert time.time() - start < 5
