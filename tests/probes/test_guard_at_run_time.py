"""The outbound guard at run time: a probe whose host moved to a refused address after it was
saved calls nothing, its credentials stay home, and the probe can still be disabled and edited."""

import pytest
from rest_framework.test import APIClient

from incidents.models import AuditEvent, Probe, ProbeRun, RunState
from incidents.outbound.guard import check_url
from incidents.probes.engine import ProbeEngine
from incidents.services.probes import claim_runs, dispatch_due_probes
from tests.outbound.rebinding import RebindingDns

from .conftest import QUICK_WRITES, wait_for

CREDENTIALS = {"Authorization": "Bearer probe-secret-7c1"}


@pytest.fixture
def rebinding_dns(monkeypatch):
    return RebindingDns(monkeypatch)


@pytest.fixture
def engine():
    engine = ProbeEngine(concurrency=10, per_host=10, linger=QUICK_WRITES)
    yield engine
    engine.drain(5)
    engine.stop()


def run_once(engine) -> ProbeRun:
    engine.submit(claim_runs(dispatch_due_probes(), worker="test"))
    wait_for(
        lambda: not ProbeRun.objects.filter(state__in=["pending", "running"]).exists(),
        seconds=15,
        message="the run to end",
    )
    return ProbeRun.objects.get()


@pytest.mark.django_db(transaction=True)
def test_a_host_rebound_to_loopback_after_saving_is_refused_and_gets_no_credentials(
    engine, make_probe, targets, rebinding_dns, settings
):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False
    url = rebinding_dns.url(targets.port, "/ok")
    check_url(url)  # what saving the probe checks: the name answers a public address
    make_probe(url=url, config={"headers": CREDENTIALS}, interval=30, timeout=2, name="rebound")
    rebinding_dns.rebind("127.0.0.1")

    run = run_once(engine)

    assert run.state == RunState.FAILED
    assert run.detail.startswith("Address refused:"), run.detail
    assert "127.0.0.1" in run.detail and "OUTBOUND_ALLOW_PRIVATE_TARGETS" in run.detail
    assert targets.requests == []
    assert not any(b"probe-secret-7c1" in head for head in targets.heads)


@pytest.mark.django_db(transaction=True)
def test_the_same_probe_reaches_loopback_when_private_targets_are_allowed(
    engine, make_probe, targets, rebinding_dns, settings
):
    make_probe(
        url=rebinding_dns.url(targets.port, "/ok"), config={"headers": CREDENTIALS}, interval=30, timeout=2
    )
    rebinding_dns.rebind("127.0.0.1")

    run = run_once(engine)

    assert run.state == RunState.OK, run.detail
    assert targets.requests == ["/ok"]
    assert b"probe-secret-7c1" in targets.heads[0]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "address", ["169.254.169.254", "169.254.170.2", "100.100.100.200", "::ffff:169.254.169.254"]
)
def test_a_host_rebound_to_a_metadata_address_is_refused_even_with_private_targets_allowed(
    engine, make_probe, rebinding_dns, address
):
    # Port 9 (discard): were the guard to let this through, no HTTP request would reach a real
    # metadata service of the machine running the tests.
    make_probe(url=rebinding_dns.url(9, "/"), interval=30, timeout=2)
    rebinding_dns.rebind(address)

    run = run_once(engine)

    assert run.state == RunState.FAILED
    assert run.detail == "Address refused: Cloud metadata addresses are never allowed."


@pytest.mark.django_db(transaction=True)
def test_a_literal_loopback_url_saved_while_allowed_is_refused_once_the_setting_is_off(
    engine, make_probe, targets, settings
):
    make_probe(url=targets.url("/ok"), config={"headers": CREDENTIALS}, interval=30, timeout=2)
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False

    run = run_once(engine)

    assert run.state == RunState.FAILED
    assert run.detail.startswith("Address refused: 127.0.0.1 is a private or loopback address")
    assert targets.requests == []


@pytest.fixture
def rebound_probe(db, make_probe, rebinding_dns, settings):
    """A probe saved while its host answered a public address, which now answers loopback."""
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False
    probe = make_probe(
        url=rebinding_dns.url(8080, "/health"), config={"headers": CREDENTIALS}, interval=30, timeout=5
    )
    rebinding_dns.rebind("127.0.0.1")
    return probe


@pytest.fixture
def admin_api(admin):
    client = APIClient()
    client.force_login(admin)
    return client


def test_a_probe_whose_host_now_points_at_loopback_can_still_be_disabled(admin_api, rebound_probe):
    response = admin_api.patch(
        f"/api/v1/probes/{rebound_probe.public_id}/", {"enabled": False}, format="json"
    )

    assert response.status_code == 200, response.content
    assert Probe.objects.get(pk=rebound_probe.pk).enabled is False
    assert AuditEvent.objects.filter(action="probe.changed", subject_id=str(rebound_probe.pk)).exists()


def test_changing_the_url_to_a_refused_address_is_still_refused(admin_api, rebound_probe):
    url = f"/api/v1/probes/{rebound_probe.public_id}/"

    moved = admin_api.patch(url, {"url": "http://rebind.example:8081/health"}, format="json")
    metadata = admin_api.patch(url, {"url": "http://[::ffff:169.254.169.254]/"}, format="json")

    assert moved.status_code == 400 and "OUTBOUND_ALLOW_PRIVATE_TARGETS" in moved.json()["url"][0]
    assert metadata.status_code == 400 and "metadata" in metadata.json()["url"][0]
    assert Probe.objects.get(pk=rebound_probe.pk).url == "http://rebind.example:8080/health"


def editor_form(probe, **fields) -> dict:
    return {
        "name": probe.name,
        "kind": probe.kind,
        "metric": probe.metric_id,
        "url": probe.url,
        "config": '{"headers": {"Authorization": "Bearer probe-secret-7c1"}}',
        "interval": probe.interval,
        "connect_timeout": probe.connect_timeout,
        "read_timeout": probe.read_timeout,
        "timeout": probe.timeout,
        **fields,
    }


def test_the_editor_saves_a_probe_whose_host_now_points_at_loopback(client, admin, rebound_probe):
    client.force_login(admin)

    response = client.post(f"/editor/probes/{rebound_probe.pk}/", editor_form(rebound_probe, name="Paused"))

    assert response.status_code == 302, response.content.decode()[-2000:]
    saved = Probe.objects.get(pk=rebound_probe.pk)
    assert (saved.name, saved.enabled) == ("Paused", False)


def test_the_admin_saves_a_probe_whose_host_now_points_at_loopback(client, admin, rebound_probe):
    admin.is_staff = admin.is_superuser = True
    admin.save()
    client.force_login(admin)
    form = {**editor_form(rebound_probe), "metric": rebound_probe.metric_id}

    response = client.post(f"/admin/incidents/probe/{rebound_probe.pk}/change/", form)

    assert response.status_code == 302, response.content.decode()[-3000:]
    assert Probe.objects.get(pk=rebound_probe.pk).enabled is False


def test_a_probe_saved_before_a_url_rule_existed_can_still_be_disabled(admin_api, make_probe, settings):
    probe = make_probe(url="http://127.0.0.1:8080/health", interval=30, timeout=5)
    Probe.objects.filter(pk=probe.pk).update(url="http://ops:hunter2@127.0.0.1:8080/health")
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False
    url = f"/api/v1/probes/{probe.public_id}/"

    disabled = admin_api.patch(url, {"enabled": False}, format="json")
    same_again = admin_api.patch(url, {"url": "http://ops:hunter2@127.0.0.2:8080/health"}, format="json")

    assert disabled.status_code == 200, disabled.content
    assert same_again.status_code == 400 and "Credentials" in same_again.json()["url"][0]
    assert Probe.objects.get(pk=probe.pk).enabled is False
