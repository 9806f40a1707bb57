"""Record mode in the editor: the declare switch and each update's "Notify subscribers" box."""

import pytest

from incidents.models import AuditEvent, Delivery, Incident, IncidentUpdate
from incidents.services.subscriptions import confirm_subscription, subscribe

from .conftest import logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(responder):
    return logged_in(responder)


@pytest.fixture
def subscriber(api):
    created = subscribe(email="ops@example.com", language="en", components=[api], send_mail=False)
    return confirm_subscription(created.subscriber)


def test_declaring_a_record_leaves_the_component_and_notifies_nobody(client, api, subscriber):
    response = client.post(
        "/editor/incidents/new/",
        {
            "title": "Old outage",
            "impact": "major",
            "language": "en",
            "body": "Entered from our old status page.",
            "affected": ["public-api"],
            "status_public-api": "major_outage",
            "publish": "on",
            "backfilled": "on",
            "started_at": "2026-11-02T10:00",
        },
    )

    incident = Incident.objects.get()
    assert response.status_code == 302
    assert incident.backfilled
    api.refresh_from_db()
    assert api.status == "operational"
    assert Delivery.objects.count() == 0
    assert AuditEvent.objects.filter(incident=incident, action="incident.entered_as_record").exists()
    cockpit = client.get(f"/editor/incidents/{incident.pk}/").content.decode()
    assert 'id="record-badge"' in cockpit
    assert (
        'name="deliver_notifications"' in cockpit
        and "disabled" in cockpit.split('name="deliver_notifications"')[1][:80]
    )


def test_the_declare_form_offers_the_record_switch(client, api):
    page = client.get("/editor/incidents/new/").content.decode()

    assert 'name="backfilled"' in page
    assert "Record of the past (no notifications, current status unchanged)" in page


def test_an_update_without_notify_sends_nothing_and_with_it_sends(client, incident, subscriber):
    before = Delivery.objects.count()
    quiet = client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {"status": "identified", "language": "en", "body": "Quiet note."},
    )
    assert quiet.status_code == 302
    assert Delivery.objects.count() == before

    told = client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {"status": "monitoring", "language": "en", "body": "Told.", "deliver_notifications": "on"},
    )

    assert told.status_code == 302
    assert Delivery.objects.count() == before + 1
    assert not IncidentUpdate.objects.get(body__en="Quiet note.").deliver_notifications


def test_a_record_ignores_a_forged_notify_box(client, api, subscriber, responder):
    client.post(
        "/editor/incidents/new/",
        {
            "title": "Old",
            "impact": "minor",
            "language": "en",
            "body": "Old.",
            "affected": ["public-api"],
            "status_public-api": "partial_outage",
            "publish": "on",
            "backfilled": "on",
            "started_at": "2026-11-02T10:00",
        },
    )
    incident = Incident.objects.get()

    client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {"status": "identified", "language": "en", "body": "Forged.", "deliver_notifications": "on"},
    )

    assert not IncidentUpdate.objects.get(body__en="Forged.").deliver_notifications
    assert Delivery.objects.count() == 0
