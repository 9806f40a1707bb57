"""An incident's times through the API: declared with a start and no message, resolved at a given
time, started_at and resolved_at corrected with a PATCH; context events with status null; and a
postmortem published at the time its authors published it."""

import datetime as dt

import pytest
from django.test import Client

from incidents.lifecycle.commands import WritePostmortem
from incidents.lifecycle.postmortems import write_postmortem
from incidents.models import AuditEvent, Component, Incident
from tests.hostile.conftest import assert_api_refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def writer(client_as):
    return client_as("write_token")


def declare(writer, **fields) -> dict:
    response = writer.post(
        "/api/v1/incidents/", {"title": "Search is slow", "language": "en", **fields}, format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()


def resolve(writer, incident: dict, **fields) -> dict:
    response = writer.post(
        f"/api/v1/incidents/{incident['id']}/resolve/",
        {"language": "en", "body": "Fixed.", **fields},
        format="json",
    )
    assert response.status_code == 200, response.content
    return response.json()


def test_declaring_without_a_message_has_no_first_update(writer):
    started = dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.UTC)
    incident = declare(writer, status="identified", started_at=started.isoformat())
    assert incident["updates"] == []
    assert incident["status"] == "identified"
    assert incident["started_at"] == "2026-11-30T10:00:00Z"
    for path in (
        f"/incidents/{incident['slug']}/",
        "/",
        "/history/",
        "/history.atom",
        "/api/v2/incidents.json",
    ):
        assert Client().get(path).status_code == 200, path


def test_resolving_at_a_given_time(writer):
    incident = declare(writer, body="Looking.", started_at="2026-11-30T10:00:00Z")
    resolved = resolve(writer, incident, display_at="2026-11-30T11:00:00Z")
    assert resolved["resolved_at"] == "2026-11-30T11:00:00Z"
    assert resolved["duration_seconds"] == 3600


def test_patching_started_at_changes_it_and_is_audited(writer):
    incident = declare(writer, body="Looking.", started_at="2026-11-30T10:00:00Z")
    resolve(writer, incident, display_at="2026-11-30T11:00:00Z")
    response = writer.patch(
        f"/api/v1/incidents/{incident['id']}/",
        {"started_at": "2026-11-30T09:30:00Z", "resolved_at": "2026-11-30T11:15:00Z"},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["started_at"] == "2026-11-30T09:30:00Z"
    assert body["resolved_at"] == "2026-11-30T11:15:00Z"
    event = AuditEvent.objects.filter(action="incident.edited").get()
    assert event.before["started_at"].startswith("2026-11-30T10:00")
    assert event.after["started_at"].startswith("2026-11-30T09:30")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("started_at", "1969-12-31T23:00:00Z"),
        ("started_at", "2999-01-01T00:00:00Z"),
        ("resolved_at", "1969-12-31T23:00:00Z"),
        ("resolved_at", "2999-01-01T00:00:00Z"),
    ],
)
def test_out_of_bounds_times_are_refused_naming_the_field(writer, field, value):
    incident = declare(writer, body="Looking.", started_at="2026-11-30T10:00:00Z")
    resolve(writer, incident, display_at="2026-11-30T11:00:00Z")
    response = writer.patch(f"/api/v1/incidents/{incident['id']}/", {field: value}, format="json")
    assert_api_refused(response, field)
    stored = Incident.objects.get(public_id=incident["id"])
    assert stored.started_at == dt.datetime(2026, 11, 30, 10, 0, tzinfo=dt.UTC)
    assert stored.resolved_at == dt.datetime(2026, 11, 30, 11, 0, tzinfo=dt.UTC)


def test_a_resolution_time_on_an_open_incident_is_refused(writer):
    incident = declare(writer, body="Looking.")
    response = writer.patch(
        f"/api/v1/incidents/{incident['id']}/", {"resolved_at": "2026-11-30T11:00:00Z"}, format="json"
    )
    assert_api_refused(response, "resolved_at")


def post_event(writer, incident: dict, **fields):
    return writer.post(
        f"/api/v1/incidents/{incident['id']}/updates/",
        {"language": "en", "status": None, **fields},
        format="json",
    )


def test_a_deploy_before_the_start_is_a_context_event_shown_first_in_time(writer):
    incident = declare(writer, body="Webhooks are late.", started_at="2026-11-30T11:00:00Z")
    deploy = post_event(writer, incident, body="Deployed release 4.2.", display_at="2026-11-30T10:00:00Z")
    assert deploy.status_code == 201, deploy.content
    assert deploy.json()["status"] is None
    assert deploy.json()["deliver_notifications"] is False

    stored = Incident.objects.get(public_id=incident["id"])
    assert stored.status == "investigating"
    page = Client().get(f"/incidents/{stored.slug}/").content.decode()
    deploy_at = page.index("Deployed release 4.2.")
    assert page.index("Webhooks are late.") < deploy_at  # newest first: the earliest is last
    deploy_entry = page[page.rindex("<li", 0, deploy_at) : deploy_at]
    assert "Note" in deploy_entry and "Investigating" not in deploy_entry


def test_a_note_during_the_incident_does_not_change_its_status(writer):
    incident = declare(writer, body="Looking.", started_at="2026-11-30T10:00:00Z")
    writer.post(
        f"/api/v1/incidents/{incident['id']}/updates/",
        {"language": "en", "status": "monitoring", "body": "A fix is out."},
        format="json",
    )
    note = post_event(writer, incident, body="We told the largest customers.")
    assert note.status_code == 201, note.content
    assert Incident.objects.get(public_id=incident["id"]).status == "monitoring"


def test_statuspage_json_leaves_context_events_out(writer):
    incident = declare(writer, body="Looking.", started_at="2026-11-30T10:00:00Z")
    post_event(writer, incident, body="Deployed.", display_at="2026-11-30T09:00:00Z")
    body = Client().get("/api/v2/incidents.json").json()
    updates = body["incidents"][0]["incident_updates"]
    assert [u["status"] for u in updates] == ["investigating"]


@pytest.fixture
def postmortem_2018(writer):
    incident = declare(writer, body="Mail delayed.", started_at="2018-07-13T10:00:00Z")
    resolve(writer, incident, display_at="2018-07-13T11:00:00Z")
    stored = Incident.objects.get(public_id=incident["id"])
    return write_postmortem(
        stored,
        WritePostmortem(language="en", sections={"summary": "A relay failed."}, expected_version=None),
        actor=None,
    )


def test_a_2018_postmortem_published_in_2018_reads_so(writer, postmortem_2018):
    response = writer.post(
        f"/api/v1/postmortems/{postmortem_2018.pk}/publish/",
        {"published_at": "2018-07-20T09:00:00Z"},
        format="json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["published_at"] == "2018-07-20T09:00:00Z"
    page = Client().get(f"/incidents/{postmortem_2018.incident.slug}/").content.decode()
    assert "Postmortem published" in page
    published = page[page.index("Postmortem published") :][:200]
    assert "2018" in published and "2026" not in published


def test_a_postmortem_publication_time_in_the_future_is_refused(writer, postmortem_2018):
    response = writer.post(
        f"/api/v1/postmortems/{postmortem_2018.pk}/publish/",
        {"published_at": "2999-01-01T00:00:00Z"},
        format="json",
    )
    assert_api_refused(response, "published_at")
    postmortem_2018.refresh_from_db()
    assert postmortem_2018.published_at is None


def test_components_declared_without_a_message_still_take_their_status(writer):
    component = Component.objects.create(slug="search", name={"en": "Search"})
    declare(writer, components=[{"component": component.public_id, "status": "major_outage"}])
    component.refresh_from_db()
    assert component.status == "major_outage"


def test_a_resolution_before_the_latest_update_is_refused(writer):
    incident = declare(writer, body="Looking.", started_at="2026-11-30T10:00:00Z")
    response = writer.post(
        f"/api/v1/incidents/{incident['id']}/resolve/",
        {"language": "en", "body": "Fixed.", "display_at": "2026-11-30T09:00:00Z"},
        format="json",
    )
    assert_api_refused(response, "display_at")
    stored = Incident.objects.get(public_id=incident["id"])
    assert stored.status == "investigating" and stored.resolved_at is None
