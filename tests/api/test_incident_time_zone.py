"""An incident's display time zone through the API and the editor: accepted, shown, audited,
documented; and the API's times stay ISO 8601 UTC instants beside it."""

import datetime as dt

import pytest
import yaml
from django.core.management import call_command
from django.test import Client

from incidents.models import AuditEvent, Incident

pytestmark = pytest.mark.django_db

MOSCOW_MIDNIGHT = "2025-09-12T00:00:00+03:00"


def test_a_zone_sent_when_declaring_is_kept_and_shown(page, client_as, settings):
    response = client_as("responder").post(
        "/api/v1/incidents/",
        {
            "title": "Вебхуки задерживаются",
            "language": "ru",
            "body": "Разбираемся.",
            "started_at": MOSCOW_MIDNIGHT,
            "display_time_zone": "Europe/Moscow",
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["display_time_zone"] == "Europe/Moscow"
    # The instant is kept, written as UTC with its offset ("Z"), in the response and on reading.
    assert body["started_at"] == "2025-09-11T21:00:00Z"
    assert dt.datetime.fromisoformat(body["started_at"]) == dt.datetime.fromisoformat(MOSCOW_MIDNIGHT)
    assert body["updates"][0]["display_at"] == "2025-09-11T21:00:00Z"
    again = client_as("viewer").get(f"/api/v1/incidents/{body['id']}/").json()
    assert again["display_time_zone"] == "Europe/Moscow"
    assert Incident.objects.get(public_id=body["id"]).display_time_zone == "Europe/Moscow"


def test_an_incident_without_a_zone_reads_the_pages(page, client_as, settings):
    response = client_as("responder").post(
        "/api/v1/incidents/", {"title": "Slow", "language": "en", "body": "Looking."}, format="json"
    )
    assert response.json()["display_time_zone"] == settings.STATUS_TIME_ZONE == "Europe/Oslo"
    assert Incident.objects.get(public_id=response.json()["id"]).display_time_zone == ""


def test_patching_the_zone_changes_it_and_is_audited(page, client_as, responder):
    incident = page["incident"]
    response = client_as("responder").patch(
        f"/api/v1/incidents/{incident.public_id}/", {"display_time_zone": "UTC"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["display_time_zone"] == "UTC"
    event = AuditEvent.objects.get(action="incident.edited", incident=incident)
    assert event.before["display_time_zone"] == "" and event.after["display_time_zone"] == "UTC"
    # An empty name goes back to the page's zone.
    back = client_as("responder").patch(
        f"/api/v1/incidents/{incident.public_id}/", {"display_time_zone": ""}, format="json"
    )
    assert back.json()["display_time_zone"] == "Europe/Oslo"


def test_patching_something_else_keeps_the_zone(page, client_as):
    incident = page["incident"]
    Incident.objects.filter(pk=incident.pk).update(display_time_zone="Asia/Tokyo")
    client_as("responder").patch(
        f"/api/v1/incidents/{incident.public_id}/", {"impact": "major"}, format="json"
    )
    assert Incident.objects.get(pk=incident.pk).display_time_zone == "Asia/Tokyo"


def test_the_zone_is_in_the_openapi_schema(tmp_path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(target))
    schemas = yaml.safe_load(target.read_text())["components"]["schemas"]
    shown = schemas["Incident"]["properties"]["display_time_zone"]
    assert shown["type"] == "string" and shown["readOnly"] is True
    for request in ("IncidentCreateRequest", "PatchedIncidentEditRequest"):
        sent = schemas[request]["properties"]["display_time_zone"]
        assert sent["type"] == "string" and sent["maxLength"] == 64, request


@pytest.fixture
def editor(responder):
    client = Client()
    client.force_login(responder)
    return client


def test_the_editor_declares_an_incident_in_a_chosen_zone(page, editor):
    form = editor.get("/editor/incidents/new/").content.decode()
    assert '<option value="Europe/Moscow">Europe/Moscow</option>' in form
    assert "The status page&#x27;s (Europe/Oslo)" in form
    response = editor.post(
        "/editor/incidents/new/",
        {
            "title": "Вебхуки задерживаются",
            "impact": "minor",
            "language": "ru",
            "body": "Разбираемся.",
            "display_time_zone": "Europe/Moscow",
            "publish": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    incident = Incident.objects.get(title__ru="Вебхуки задерживаются")
    assert incident.display_time_zone == "Europe/Moscow"


def test_the_editor_changes_the_zone_of_an_incident(page, editor):
    incident = page["incident"]
    form = editor.get(f"/editor/incidents/{incident.pk}/edit/").content.decode()
    assert 'name="display_time_zone"' in form
    response = editor.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {
            "title": "Delayed webhook deliveries",
            "impact": incident.impact,
            "display_time_zone": "America/Sao_Paulo",
            "version": incident.version,
        },
    )
    assert response.status_code == 302
    assert Incident.objects.get(pk=incident.pk).display_time_zone == "America/Sao_Paulo"
    event = AuditEvent.objects.get(action="incident.edited", incident=incident)
    assert event.after["display_time_zone"] == "America/Sao_Paulo"
