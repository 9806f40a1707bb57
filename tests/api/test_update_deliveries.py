"""GET /api/v1/incidents/{id}/updates/{update_id}/deliveries/: who was told about one update,
counted per channel and state, the same counts as the editor shows; never the recipients."""

import pytest
from django.utils import timezone

from incidents.channels import outbox
from incidents.channels.registry import CHANNELS
from incidents.lifecycle.commands import PostUpdate
from incidents.lifecycle.updates import post_update
from incidents.models import Channel, Subscriber

pytestmark = pytest.mark.django_db

HOOK_URL = "http://127.0.0.1:9/hooks/secret-token"


@pytest.fixture
def told(page, admin):
    Subscriber.objects.create(email="reader@example.com", all_components=True, confirmed_at=timezone.now())
    Subscriber.objects.create(
        channel=Channel.WEBHOOK, email="ops@example.com", endpoint_url=HOOK_URL, confirmed_at=timezone.now()
    )
    update = post_update(
        page["incident"],
        PostUpdate(status="monitoring", body={"en": "A fix is out."}, language="en"),
        actor=admin,
    )
    return page["incident"], update


def url(incident, update_id: str) -> str:
    return f"/api/v1/incidents/{incident.public_id}/updates/{update_id}/deliveries/"


def test_counts_move_from_queued_to_sent_and_failed_per_channel(client_as, told):
    incident, update = told
    viewer = client_as("viewer")

    queued = viewer.get(url(incident, update.public_id))
    outbox.deliver_due(seconds=30)
    settled = viewer.get(url(incident, update.public_id))

    assert queued.status_code == 200
    assert queued.json()["deliveries"]["email"] == {"queued": 1, "sent": 0, "failed": 0}
    assert queued.json()["deliveries"]["webhook"] == {"queued": 1, "sent": 0, "failed": 0}
    assert settled.json() == {
        "update": update.public_id,
        "deliveries": {
            **{name: {"queued": 0, "sent": 0, "failed": 0} for name in settled.json()["deliveries"]},
            "email": {"queued": 0, "sent": 1, "failed": 0},
            "webhook": {"queued": 0, "sent": 0, "failed": 1},
        },
        "totals": {"queued": 0, "sent": 1, "failed": 1},
    }


def test_the_counts_never_name_a_recipient(client_as, told):
    incident, update = told
    outbox.deliver_due(seconds=30)

    body = client_as("read_token").get(url(incident, update.public_id)).content.decode()

    assert "reader@example.com" not in body and "ops@example.com" not in body
    assert "127.0.0.1" not in body and "secret-token" not in body


def test_an_update_nobody_heard_of_counts_zero_on_every_channel(client_as, page):
    update = page["incident"].updates.last()

    body = client_as("viewer").get(url(page["incident"], update.public_id)).json()

    assert body["totals"] == {"queued": 0, "sent": 0, "failed": 0}
    assert set(body["deliveries"]) == {
        str(name) for name in CHANNELS
    }  # every channel the outbox sends through


@pytest.mark.parametrize("persona, expected", [("anonymous", 401), ("outsider", 403)])
def test_staff_only(client_as, told, persona, expected):
    incident, update = told

    assert client_as(persona).get(url(incident, update.public_id)).status_code == expected


def test_an_update_of_another_incident_or_unknown_is_not_found(client_as, told, page):
    incident, update = told
    viewer = client_as("viewer")

    assert viewer.get(url(page["resolved"], update.public_id)).status_code == 404
    assert viewer.get(url(incident, "zzzzzzzz")).status_code == 404
    assert viewer.get(url(incident, update.public_id)).status_code == 200


def test_the_schema_documents_the_counts(api):
    schema = api.get("/api/schema/?format=json").json()

    operation = schema["paths"]["/api/v1/incidents/{id}/updates/{update_id}/deliveries/"]["get"]
    body = operation["responses"]["200"]["content"]["application/json"]["schema"]
    counts = schema["components"]["schemas"]["DeliveryCounts"]
    assert body == {"$ref": "#/components/schemas/UpdateDeliveries"}
    assert set(counts["properties"]) == {"queued", "sent", "failed"}
