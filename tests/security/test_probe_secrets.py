"""Credentials in probe settings are write-only through the API: every header value read back
masked (as in the audit trail) by every persona, and a masked value sent back keeps the stored
credential."""

import json

import pytest

from incidents.models import AuditEvent, Probe
from incidents.services.probes import save_probe

CREDENTIAL = "Bearer s3cret-probe-credential"
READERS = ["viewer", "responder", "admin", "read_token", "write_token"]


@pytest.fixture
def guarded(probes, admin):
    probe = probes["http"]
    probe.config = {
        "headers": {"Authorization": CREDENTIAL, "X-Api-Key": "k3y-value", "Accept": "text/plain"}
    }
    return save_probe(probe, actor=admin)


def detail_url(probe):
    return f"/api/v1/probes/{probe.public_id}/"


@pytest.mark.parametrize("persona", READERS)
def test_no_reader_sees_a_probe_credential(guarded, client_as, persona):
    client = client_as(persona)

    detail = client.get(detail_url(guarded))
    listing = client.get("/api/v1/probes/")

    assert (detail.status_code, listing.status_code) == (200, 200)
    text = detail.content.decode() + listing.content.decode()
    assert "s3cret-probe-credential" not in text and "k3y-value" not in text
    headers = detail.json()["config"]["headers"]
    assert headers["Authorization"].startswith("••••")
    assert headers["Accept"].startswith("••••")  # a header's name does not say whether it is a secret


def test_the_api_masks_exactly_as_the_audit_trail(guarded, client_as):
    audited = AuditEvent.objects.filter(action="probe.changed").latest("id").after["config"]["headers"]

    read = client_as("admin").get(detail_url(guarded)).json()["config"]["headers"]

    assert read["Authorization"] == audited["Authorization"]
    assert CREDENTIAL not in json.dumps(audited)


def test_sending_the_masked_value_back_keeps_the_stored_credential(guarded, client_as):
    writer = client_as("write_token")
    config = writer.get(detail_url(guarded)).json()["config"]
    config["headers"]["Accept"] = "application/json"

    response = writer.patch(detail_url(guarded), {"config": config}, format="json")

    assert response.status_code == 200, response.content
    stored = Probe.objects.get(pk=guarded.pk).config["headers"]
    assert stored == {"Authorization": CREDENTIAL, "X-Api-Key": "k3y-value", "Accept": "application/json"}
    assert "s3cret" not in response.content.decode()


def test_a_new_credential_replaces_the_stored_one(guarded, client_as):
    headers = {"Authorization": "Bearer rotated", "Accept": "text/plain"}

    response = client_as("admin").patch(detail_url(guarded), {"config": {"headers": headers}}, format="json")

    assert response.status_code == 200, response.content
    assert Probe.objects.get(pk=guarded.pk).config["headers"] == headers


def test_a_mask_that_matches_nothing_stored_is_refused(guarded, client_as):
    before = Probe.objects.get(pk=guarded.pk).config
    headers = {"Authorization": "••••deadbeef", "Accept": "text/plain"}

    response = client_as("admin").patch(detail_url(guarded), {"config": {"headers": headers}}, format="json")

    assert response.status_code == 400
    assert "config" in response.json()
    assert Probe.objects.get(pk=guarded.pk).config == before
