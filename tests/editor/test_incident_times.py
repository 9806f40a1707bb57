"""The editor sets an incident's own times: its start when declaring (no message needed), its
resolution time, corrections of both, a note that changes no status, and when a postmortem was
published."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.conf import settings
from django.test import Client

from incidents.lifecycle.commands import DeclareIncident, ResolveIncident
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.proposals import default_update_text
from incidents.lifecycle.updates import resolve_incident
from incidents.models import AuditEvent, Incident
from tests.hostile.conftest import assert_form_refused

from .conftest import logged_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(responder):
    return logged_in(responder)


def local(text: str) -> dt.datetime:
    """A time typed into the editor, read in the status page's zone."""
    return dt.datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(settings.STATUS_TIME_ZONE))


def test_declaring_with_a_start_time_and_no_message_posts_the_default_message_at_the_start(client):
    response = client.post(
        "/editor/incidents/new/",
        {
            "title": "Search is slow",
            "impact": "minor",
            "status": "identified",
            "started_at": "2026-11-30T10:00",
            "language": "en",
            "body": "",
            "publish": "on",
        },
    )
    assert response.status_code == 302, response.content[:2000]
    incident = Incident.objects.get()
    assert incident.started_at == local("2026-11-30T10:00")
    assert incident.status == "identified"
    first = incident.updates.get()
    assert first.display_at == local("2026-11-30T10:00")
    assert first.body == {"en": default_update_text("identified", language="en")}


def test_a_future_start_is_refused_in_the_form(client):
    response = client.post(
        "/editor/incidents/new/",
        {"title": "Search is slow", "impact": "minor", "started_at": "2999-01-01T10:00", "language": "en"},
    )
    assert_form_refused(response, "started_at")
    assert not Incident.objects.exists()


def test_resolving_at_a_given_time(client, responder):
    with time_machine.travel(local("2026-11-30T10:00"), tick=False):
        incident = declare_incident(
            DeclareIncident(title="Search is slow", language="en", body="Looking."), actor=responder
        )
    client.post(
        f"/editor/incidents/{incident.pk}/resolve/",
        {
            "resolve-language": "en",
            "resolve-body": "Fixed.",
            "resolve-version": incident.version,
            "resolve-display_at": "2026-11-30T11:00",
        },
    )
    incident.refresh_from_db()
    assert incident.status == "resolved"
    assert incident.resolved_at == local("2026-11-30T11:00")


def test_editing_the_start_and_resolution_is_audited(client, incident, responder):
    resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)
    incident.refresh_from_db()
    response = client.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {
            "title": "Elevated API errors",
            "impact": "major",
            "version": incident.version,
            "display_time_zone": "",
            "started_at": "2026-11-30T09:30",
            "resolved_at": "2026-11-30T10:45",
            "reason": "Times from the on-call log",
        },
    )
    assert response.status_code == 302, response.content[:2000]
    incident.refresh_from_db()
    assert incident.started_at == local("2026-11-30T09:30")
    assert incident.resolved_at == local("2026-11-30T10:45")
    event = AuditEvent.objects.filter(action="incident.edited").get()
    assert event.after["started_at"] == local("2026-11-30T09:30").isoformat()
    assert event.after["reason"] == "Times from the on-call log"


def test_a_resolution_time_on_an_open_incident_is_refused(client, incident):
    response = client.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {
            "title": "Elevated API errors",
            "impact": "major",
            "version": incident.version,
            "display_time_zone": "",
            "resolved_at": "2026-11-30T10:45",
        },
    )
    assert_form_refused(response, "resolved_at")
    incident.refresh_from_db()
    assert incident.resolved_at is None


def test_a_note_changes_no_status_and_notifies_nobody(client, incident):
    response = client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {
            "status": "",
            "language": "en",
            "body": "We told the largest customers.",
            "deliver_notifications": "on",
        },
    )
    assert response.status_code == 302, response.content[:2000]
    incident.refresh_from_db()
    assert incident.status == "investigating"
    note = incident.updates.timeline().first()
    assert note.status == "" and not note.deliver_notifications
    page = client.get(f"/editor/incidents/{incident.pk}/").content.decode()
    assert "Note (no status change)" in page
    assert "<strong>Note</strong>" in page


def test_a_2018_postmortem_published_in_2018_reads_so(client, incident, postmortem):
    client.post(
        f"/editor/incidents/{incident.pk}/postmortem/publish/",
        {"published_at": "2018-07-20T11:00", "publish_with_empty_sections": "on"},
    )
    postmortem.refresh_from_db()
    assert postmortem.published_at == local("2018-07-20T11:00")
    page = Client().get(f"/incidents/{incident.slug}/").content.decode()
    published = page[page.index("Postmortem published") :][:200]
    assert "2018" in published


def test_a_future_postmortem_publication_is_refused(client, incident, postmortem):
    client.post(
        f"/editor/incidents/{incident.pk}/postmortem/publish/",
        {"published_at": "2999-01-01T00:00", "publish_with_empty_sections": "on"},
    )
    postmortem.refresh_from_db()
    assert not postmortem.is_published


def test_a_resolution_before_the_latest_update_is_refused(client, responder):
    with time_machine.travel(local("2026-11-30T10:00"), tick=False):
        incident = declare_incident(
            DeclareIncident(title="Search is slow", language="en", body="Looking."), actor=responder
        )
    response = client.post(
        f"/editor/incidents/{incident.pk}/resolve/",
        {
            "resolve-language": "en",
            "resolve-body": "Fixed.",
            "resolve-version": incident.version,
            "resolve-display_at": "2026-11-30T09:00",
        },
    )
    assert_form_refused(response, "resolve-display_at")
    incident.refresh_from_db()
    assert incident.status == "investigating" and incident.resolved_at is None
