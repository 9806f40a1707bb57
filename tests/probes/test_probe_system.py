"""End to end with a real Redis broker, the beat scheduler and a Celery worker consuming the
`probes` queue, as deployed: dispatcher → queue → worker → database."""

import json
import time
import urllib.request

import pytest

from incidents.models import BreakerState, CircuitBreaker, ProbeKind, ProbeRun, RunState
from incidents.probes.webhook import SIGNATURE_HEADER, sign

from .conftest import cut_where_due, wait_for

pytestmark = [pytest.mark.redis, pytest.mark.system, pytest.mark.django_db(transaction=True)]


def runs_of(probe, *states):
    runs = ProbeRun.objects.filter(probe=probe).order_by("scheduled_at")
    return list(runs.filter(state__in=states) if states else runs)


def test_a_hanging_target_times_out_then_its_breaker_opens(probe_system, make_probe, targets):
    hanging = make_probe(url=targets.url("/hang"), interval=3, timeout=1.5, read_timeout=10, name="hang")
    healthy = make_probe(url=targets.url("/ok"), interval=3, timeout=1.5, name="ok")
    probe_system.start_beat()
    probe_system.start_worker()

    wait_for(lambda: runs_of(hanging, RunState.SKIPPED), seconds=40, message=probe_system.logs())

    timeouts = runs_of(hanging, RunState.TIMEOUT)
    # PROBE_BREAKER_FAILURES is 2 in the worker's environment; one more run may already have
    # been dispatched (runs are dispatched up to two dispatch periods ahead) when it opened.
    assert 2 <= len(timeouts) <= 3
    assert all(run.scheduled_at < runs_of(hanging, RunState.SKIPPED)[0].scheduled_at for run in timeouts)
    for run in timeouts:
        assert cut_where_due(run)
    breaker = CircuitBreaker.objects.get(target=targets.url("/hang"))
    assert breaker.state == BreakerState.OPEN
    assert "circuit open" in runs_of(hanging, RunState.SKIPPED)[0].detail
    assert runs_of(healthy, RunState.OK)
    assert not runs_of(healthy, RunState.TIMEOUT, RunState.FAILED, RunState.SKIPPED)
    assert healthy.metric.samples.filter(outcome="ok").exists()


def test_runs_of_a_killed_worker_are_marked_abandoned_within_twice_their_deadline(
    probe_system, make_probe, targets
):
    probe = make_probe(url=targets.url("/hang"), interval=60, timeout=6, read_timeout=30, name="victim")
    probe_system.start_worker("first")
    probe_system.start_worker("second")
    probe_system.start_beat()
    run = wait_for(lambda: runs_of(probe, RunState.RUNNING), seconds=30, message=probe_system.logs())[0]
    wait_for(lambda: "/hang" in targets.requests, seconds=10, message="the request to reach the target")
    probe_system.kill_worker_running(run)  # the other worker carries on

    wait_for(lambda: runs_of(probe, RunState.ERROR), seconds=30, message=probe_system.logs())
    run.refresh_from_db()
    assert run.state == RunState.ERROR and "abandoned" in run.detail
    # The run could start at its deadline minus its timeout (later than scheduled when the
    # system was still starting up).
    could_start = run.deadline.timestamp() - probe.timeout
    assert run.finished_at.timestamp() - could_start <= 2 * probe.timeout
    assert not runs_of(probe, RunState.PENDING, RunState.RUNNING) or all(
        r.scheduled_at > run.scheduled_at for r in runs_of(probe, RunState.PENDING, RunState.RUNNING)
    )


def test_a_webhook_round_trip_through_the_local_receiver(probe_system, make_probe, targets, live_receiver):
    probe = make_probe(
        ProbeKind.WEBHOOK, url=targets.url("/trigger"), interval=60, timeout=5, name="round trip"
    )

    def monitored_system_emits_event(trigger_body: bytes):
        """What the monitored system does: send its webhook, carrying the nonce, a bit later."""
        nonce = json.loads(trigger_body)["nonce"]
        time.sleep(0.2)
        body = json.dumps({"event": "canary", "nonce": nonce}).encode()
        request = urllib.request.Request(
            f"{live_receiver}/probes/webhook/{probe.public_id}/",
            data=body,
            headers={"Content-Type": "application/json", SIGNATURE_HEADER: sign(probe.webhook_secret, body)},
        )
        urllib.request.urlopen(request, timeout=5).read()

    targets.on_trigger = monitored_system_emits_event
    probe_system.start_beat()
    probe_system.start_worker()

    [run] = wait_for(lambda: runs_of(probe, RunState.OK), seconds=40, message=probe_system.logs())
    assert 200 <= run.value < 5000  # milliseconds from trigger to receipt
    assert probe.metric.samples.get().value == run.value


def test_a_canary_that_never_comes_back_is_a_timeout(probe_system, make_probe, targets):
    probe = make_probe(ProbeKind.WEBHOOK, url=targets.url("/trigger"), interval=60, timeout=2, name="lost")
    probe_system.start_beat()
    probe_system.start_worker()
    [run] = wait_for(lambda: runs_of(probe, RunState.TIMEOUT), seconds=40, message=probe_system.logs())
    assert run.detail == "canary not received"
    assert probe.metric.samples.get().outcome == "timeout"


def test_a_prometheus_endpoint_served_by_the_test_is_scraped(probe_system, make_probe, targets):
    targets.exposition = (
        "# TYPE webhook_delivery_delay_seconds gauge\n"
        'webhook_delivery_delay_seconds{region="eu"} 12.5\n'
        'webhook_delivery_delay_seconds{region="us"} 640\n'
    )
    config = {"format": "prometheus", "metric": "webhook_delivery_delay_seconds", "labels": {"region": "us"}}
    probe = make_probe(ProbeKind.SCRAPE, url=targets.url("/metrics"), config=config, interval=60, timeout=2)
    probe_system.start_beat()
    probe_system.start_worker()
    [run] = wait_for(lambda: runs_of(probe, RunState.OK), seconds=40, message=probe_system.logs())
    assert run.value == 640
    probe.metric.refresh_from_db()
    assert probe.metric.latest_value == 640
