"""A status a probe measured is told in the trail as that probe's doing."""

import pytest
from django.utils import timezone

from incidents.editor.audit_text import describe
from incidents.models import AuditEvent, RunState
from incidents.probes.base import RunResult
from incidents.services.probe_results import record_run_results
from incidents.services.probes import claim_runs, dispatch_due_probes

pytestmark = pytest.mark.django_db


def test_the_trail_says_which_probe_moved_the_component(make_probe, settings):
    settings.PROBE_RECOVERY_EVALUATIONS = 1
    probe = make_probe(url="http://127.0.0.1:8401/ok", interval=30, timeout=5, name="Webhook canary")
    probe.metric.window = 1
    probe.metric.save()
    [spec] = claim_runs(dispatch_due_probes(now=timezone.now()), worker="test")

    record_run_results([RunResult(spec, RunState.OK, spec.scheduled_at, spec.scheduled_at + 1, 2500.0)])

    event = AuditEvent.objects.get(action="component.status_changed")
    line = describe(event, "en")
    assert line.by_automation
    assert line.actor == "the probe “Webhook canary”"
    assert line.sentence == "Webhook delivery: Operational → Major outage"
