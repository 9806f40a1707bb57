"""Probe runs as /metrics counts them: by kind and outcome, with lateness and duration."""

import datetime as dt

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from incidents.models import ProbeRun, RunState
from incidents.probes.base import RunResult
from incidents.services.probe_results import record_run_results
from incidents.services.probes import claim_runs, dispatch_due_probes

pytestmark = pytest.mark.django_db


def scraped(client, name: str, **labels) -> float:
    text = client.get("/metrics").content.decode()
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return sample.value
    return 0.0


def test_an_ended_run_is_counted_with_how_late_it_started_and_how_long_it_took(client, make_probe):
    make_probe(url="http://127.0.0.1:8401/ok", interval=30, timeout=5)
    runs_before = scraped(client, "statuspage_probe_runs_total", kind="http", outcome="timeout")
    late_before = scraped(client, "statuspage_probe_lateness_seconds_bucket", kind="http", le="2.0")
    slow_before = scraped(client, "statuspage_probe_duration_seconds_bucket", kind="http", le="5.0")
    now = timezone.now()
    [spec] = claim_runs(dispatch_due_probes(now=now), worker="test")

    # Started 3 s after it was due, gave up 4 s later.
    started = spec.scheduled_at + 3
    record_run_results([RunResult(spec, RunState.TIMEOUT, started, started + 4, None)])

    assert scraped(client, "statuspage_probe_runs_total", kind="http", outcome="timeout") == runs_before + 1
    # Not within 2 s of its time, but within 5 s of running.
    assert scraped(client, "statuspage_probe_lateness_seconds_bucket", kind="http", le="2.0") == late_before
    assert (
        scraped(client, "statuspage_probe_duration_seconds_bucket", kind="http", le="5.0") == slow_before + 1
    )


def test_runs_past_their_deadline_are_counted_as_overdue_by_kind(client, make_probe):
    make_probe(url="http://127.0.0.1:8401/ok", interval=30, timeout=5)
    dispatch_due_probes(now=timezone.now())
    assert scraped(client, "statuspage_probe_runs_overdue", kind="http") == 0

    ProbeRun.objects.update(deadline=timezone.now() - dt.timedelta(seconds=1))

    assert scraped(client, "statuspage_probe_runs_overdue", kind="http") == 1
    ProbeRun.objects.update(state=RunState.OK)
    assert scraped(client, "statuspage_probe_runs_overdue", kind="http") == 0
