"""The dispatcher, claiming runs, circuit breakers and the watchdog, without a worker."""

import datetime as dt

import pytest
from django.utils import timezone

from incidents.models import BreakerState, CircuitBreaker, ProbeRun, RunState
from incidents.probes.base import RunResult
from incidents.services.probe_results import record_run_results
from incidents.services.probes import claim_runs, dispatch_due_probes, sweep_abandoned_runs


@pytest.fixture
def probe(make_probe):
    return make_probe(url="http://127.0.0.1:8401/ok", interval=30, timeout=5)


def run_once(probe, state: RunState, *, now=None):
    """Dispatches the probe, claims its run and stores `state` as its result."""
    now = now or timezone.now()
    run_ids = dispatch_due_probes(now=now)
    [spec] = claim_runs(run_ids, worker="test")
    t = now.timestamp()
    record_run_results([RunResult(spec, state, t, t + 0.1, 12.0 if state == RunState.OK else None)])
    probe.refresh_from_db()
    return ProbeRun.objects.get(pk=spec.run_id)


def test_due_probes_get_a_pending_run_and_their_next_time(probe):
    now = timezone.now()
    [run_id] = dispatch_due_probes(now=now)
    run = ProbeRun.objects.get(pk=run_id)
    assert run.state == RunState.PENDING
    assert run.deadline == max(run.scheduled_at, now) + dt.timedelta(seconds=5)
    assert run.abandon_after <= run.scheduled_at + dt.timedelta(seconds=10)
    probe.refresh_from_db()
    assert probe.next_run_at == run.scheduled_at + dt.timedelta(seconds=30)
    assert dispatch_due_probes(now=now) == []  # not due again until its next time


def test_a_redelivered_message_claims_nothing(probe):
    run_ids = dispatch_due_probes()
    assert len(claim_runs(run_ids, worker="a")) == 1
    assert claim_runs(run_ids, worker="b") == []
    assert ProbeRun.objects.get().worker.startswith("a/")


def test_a_result_is_stored_as_a_sample_once(probe):
    run = run_once(probe, RunState.OK)
    assert run.state == RunState.OK and run.value == 12.0
    assert probe.metric.samples.get().value == 12.0
    assert claim_runs([run.pk], worker="x") == []  # a finished run cannot be claimed again


def test_consecutive_failures_and_timeouts_open_the_breaker_then_runs_are_skipped(probe, settings):
    settings.PROBE_BREAKER_FAILURES = 2
    start = timezone.now()
    run_once(probe, RunState.TIMEOUT, now=start)
    assert CircuitBreaker.objects.get().state == BreakerState.CLOSED
    run_once(probe, RunState.FAILED, now=start + dt.timedelta(seconds=30))
    breaker = CircuitBreaker.objects.get()
    assert breaker.state == BreakerState.OPEN and breaker.consecutive_failures == 2

    assert dispatch_due_probes(now=start + dt.timedelta(seconds=60)) == []
    skipped = ProbeRun.objects.latest("scheduled_at")
    assert skipped.state == RunState.SKIPPED and "circuit open" in skipped.detail


def test_a_success_resets_the_failure_count(probe, settings):
    settings.PROBE_BREAKER_FAILURES = 2
    start = timezone.now()
    run_once(probe, RunState.TIMEOUT, now=start)
    run_once(probe, RunState.OK, now=start + dt.timedelta(seconds=30))
    run_once(probe, RunState.TIMEOUT, now=start + dt.timedelta(seconds=60))
    assert CircuitBreaker.objects.get().state == BreakerState.CLOSED


def test_after_the_cool_down_one_trial_run_goes_through_half_open(probe, settings):
    settings.PROBE_BREAKER_FAILURES = 1
    settings.PROBE_BREAKER_COOLDOWN = 60
    start = timezone.now()
    run_once(probe, RunState.TIMEOUT, now=start)
    assert CircuitBreaker.objects.get().state == BreakerState.OPEN
    later = timezone.now() + dt.timedelta(seconds=61)
    probe.__class__.objects.filter(pk=probe.pk).update(next_run_at=later)
    [trial] = dispatch_due_probes(now=later)
    assert CircuitBreaker.objects.get().state == BreakerState.HALF_OPEN
    [spec] = claim_runs([trial], worker="w")
    record_run_results([RunResult(spec, RunState.OK, later.timestamp(), later.timestamp() + 0.1, 5.0)])
    assert CircuitBreaker.objects.get().state == BreakerState.CLOSED


def test_the_watchdog_ends_runs_nobody_finished(probe):
    now = timezone.now()
    run_ids = dispatch_due_probes(now=now)
    [spec] = claim_runs(run_ids, worker="killed")
    run = ProbeRun.objects.get()
    assert sweep_abandoned_runs(now=run.deadline) == 0  # still within its time
    assert sweep_abandoned_runs(now=run.scheduled_at + dt.timedelta(seconds=10)) == 1
    run.refresh_from_db()
    assert run.state == RunState.ERROR and "abandoned" in run.detail
    # A late result from the dead worker does not overwrite the verdict.
    late = RunResult(spec, RunState.OK, now.timestamp(), now.timestamp() + 30, 9.0)
    assert record_run_results([late]) == 0
    run.refresh_from_db()
    assert run.state == RunState.ERROR
    assert not probe.metric.samples.exists()


def test_the_watchdog_ends_runs_whose_message_was_lost(probe):
    now = timezone.now()
    dispatch_due_probes(now=now)
    assert sweep_abandoned_runs(now=now + dt.timedelta(seconds=10)) == 1
    assert ProbeRun.objects.get().state == RunState.ERROR
