"""The webhook receiver: signature, nonce, replays and deadlines, through the real URL."""

import datetime as dt
import json

import pytest
from django.utils import timezone

from incidents.models import ProbeKind, ProbeRun, RunState
from incidents.probes.webhook import SIGNATURE_HEADER, sign
from incidents.services.probes import claim_runs, dispatch_due_probes, mark_triggered


@pytest.fixture
def canary(make_probe):
    """A webhook probe whose canary was triggered a moment ago."""
    probe = make_probe(ProbeKind.WEBHOOK, url="http://127.0.0.1:8401/trigger", interval=60, timeout=10)
    [spec] = claim_runs(dispatch_due_probes(), worker="w")
    mark_triggered(spec.run_id, at=timezone.now() - dt.timedelta(milliseconds=250))
    return probe, ProbeRun.objects.get(pk=spec.run_id)


def deliver(client, probe, payload, *, secret=None):
    body = json.dumps(payload).encode()
    signature = "sha256=" + sign(secret or probe.webhook_secret, body)
    return client.post(
        f"/probes/webhook/{probe.public_id}/",
        data=body,
        content_type="application/json",
        headers={SIGNATURE_HEADER: signature},
    )


def test_a_signed_canary_finishes_the_run_with_its_delay(client, canary):
    probe, run = canary
    response = deliver(client, probe, {"nonce": run.nonce, "event": "ping"})
    assert response.status_code == 200
    run.refresh_from_db()
    assert run.state == RunState.OK
    assert 250 <= run.value < 5000  # milliseconds between trigger and receipt
    assert probe.metric.samples.get().value == run.value


def test_a_replayed_canary_is_refused_and_counted_once(client, canary):
    probe, run = canary
    assert deliver(client, probe, {"nonce": run.nonce}).status_code == 200
    assert deliver(client, probe, {"nonce": run.nonce}).status_code == 409
    assert probe.metric.samples.count() == 1


@pytest.mark.parametrize(
    ("payload", "secret", "status"),
    [
        ({"nonce": "made-up"}, None, 404),
        ({"no": "nonce"}, None, 400),
        ({"nonce": "RUN"}, "wrong-secret", 401),
    ],
)
def test_unknown_nonces_bad_bodies_and_bad_signatures_are_refused(client, canary, payload, secret, status):
    probe, run = canary
    payload = {k: (run.nonce if v == "RUN" else v) for k, v in payload.items()}
    assert deliver(client, probe, payload, secret=secret).status_code == status
    run.refresh_from_db()
    assert run.state == RunState.RUNNING
    assert not probe.metric.samples.exists()


def test_a_canary_past_its_deadline_is_not_counted(client, canary):
    probe, run = canary
    ProbeRun.objects.filter(pk=run.pk).update(deadline=timezone.now() - dt.timedelta(seconds=1))
    assert deliver(client, probe, {"nonce": run.nonce}).status_code == 410
    assert not probe.metric.samples.exists()


def test_an_unsigned_request_is_refused(client, canary):
    probe, run = canary
    response = client.post(
        f"/probes/webhook/{probe.public_id}/",
        data=json.dumps({"nonce": run.nonce}),
        content_type="application/json",
    )
    assert response.status_code == 401
