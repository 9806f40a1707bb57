"""A published incident's history as responders could rewrite it: moved to 1970 (out of the
history and the bars), an ongoing outage entered as a record (no subscriber hears of it), a
record or an import ending before it starts, a note dated months before the incident. Each is
refused through the API and the editor naming the field, with nothing written; a far move with
a reason (or by an admin) goes through and the trail keeps the reason."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from incidents.lifecycle.commands import EnterRecord
from incidents.lifecycle.opening import enter_record
from incidents.models import AuditEvent, Incident
from tests.conftest import database_rows

from .conftest import assert_form_refused, refused_without_trace

FAR_BACK = "1970-01-02T00:00:00Z"


def _iso(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _local(value: dt.datetime) -> str:
    """As the editor's datetime-local inputs take it: in the status page's zone, without one."""
    return f"{value.astimezone(ZoneInfo(settings.STATUS_TIME_ZONE)):%Y-%m-%dT%H:%M}"


def _ago(**delta) -> dt.datetime:
    return timezone.now() - dt.timedelta(**delta)


@pytest.fixture
def responder_editor(responder):
    client = Client()
    client.force_login(responder)
    return client


def _form_refused_without_trace(response, field: str, rows_before: dict) -> None:
    assert_form_refused(response, field)
    assert f'id="id_{field}_error"' in response.content.decode(), "the error is not next to the field"
    assert database_rows() == rows_before


# --- moving a published incident ---


def test_the_api_refuses_a_responder_moving_a_published_incident_to_1970(page, client_as):
    incident = page["resolved"]
    before = database_rows()

    response = client_as("responder").patch(
        f"/api/v1/incidents/{incident.public_id}/", {"started_at": FAR_BACK}, format="json"
    )

    refused_without_trace(response, "reason", before)


def test_the_editor_refuses_a_responder_moving_a_published_incident_to_1970(page, responder_editor):
    incident = page["resolved"]
    before = database_rows()

    response = responder_editor.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {
            "title": incident.title["en"],
            "impact": incident.impact,
            "version": incident.version,
            "started_at": "1970-01-02T01:00",
        },
    )

    _form_refused_without_trace(response, "reason", before)


def test_a_far_move_with_a_reason_goes_through_and_the_trail_keeps_it(page, client_as):
    incident = page["resolved"]
    moved = incident.started_at - dt.timedelta(days=3)

    response = client_as("responder").patch(
        f"/api/v1/incidents/{incident.public_id}/",
        {"started_at": _iso(moved), "reason": "The outage began on Friday: see the vendor's report."},
        format="json",
    )

    assert response.status_code == 200, response.content
    assert Incident.objects.get(pk=incident.pk).started_at == moved.replace(microsecond=0)
    event = AuditEvent.objects.filter(action="incident.edited").latest("id")
    assert event.after["reason"] == "The outage began on Friday: see the vendor's report."
    by_admin = client_as("admin").patch(
        f"/api/v1/incidents/{incident.public_id}/",
        {"started_at": _iso(moved - dt.timedelta(days=2))},
        format="json",
    )
    assert by_admin.status_code == 200, by_admin.content


# --- records of the past ---


def test_the_api_refuses_an_ongoing_outage_entered_as_a_record(page, client_as):
    before = database_rows()

    response = client_as("responder").post(
        "/api/v1/incidents/",
        {
            "title": "Checkout failing",
            "language": "en",
            "body": "Payments fail.",
            "started_at": _iso(_ago(minutes=10)),
            "components": [{"component": page["rest"].public_id, "status": "major_outage"}],
            "backfilled": True,
        },
        format="json",
    )

    refused_without_trace(response, "started_at", before)


def test_the_editor_refuses_an_ongoing_outage_entered_as_a_record(page, editor):
    before = database_rows()

    response = editor.post(
        "/editor/incidents/new/",
        {
            "title": "Checkout failing",
            "impact": "critical",
            "language": "en",
            "body": "Payments fail.",
            "publish": "on",
            "backfilled": "on",
            "started_at": _local(_ago(minutes=10)),
        },
    )

    _form_refused_without_trace(response, "started_at", before)


def test_the_api_refuses_to_resolve_a_record_before_it_started(page, client_as, admin):
    record = enter_record(
        EnterRecord(title="Old outage", language="en", started_at=_ago(days=10)), actor=admin
    )
    before = database_rows()

    response = client_as("responder").post(
        f"/api/v1/incidents/{record.public_id}/resolve/",
        {"language": "en", "body": "Fixed.", "display_at": _iso(_ago(days=12))},
        format="json",
    )

    refused_without_trace(response, "display_at", before)


def test_an_import_that_ends_before_it_starts_is_refused(page, client_as):
    export = {
        "id": "imp0rtb4ck01",
        "name": "Delayed deliveries",
        "status": "resolved",
        "impact": "minor",
        "created_at": "2018-03-01T10:00:00Z",
        "resolved_at": "2018-02-01T11:00:00Z",
        "incident_updates": [],
    }
    before = database_rows()

    response = client_as("admin").post("/api/v1/imports/statuspage/", {"incidents": [export]}, format="json")

    refused_without_trace(response, "resolved_at", before)


# --- context events ---


def test_the_api_refuses_a_note_months_before_the_incident(page, client_as):
    incident = page["incident"]
    before = database_rows()

    response = client_as("responder").post(
        f"/api/v1/incidents/{incident.public_id}/updates/",
        {
            "status": None,
            "language": "en",
            "body": "Deployed 4.2.",
            "display_at": _iso(incident.started_at - dt.timedelta(days=90)),
        },
        format="json",
    )

    refused_without_trace(response, "display_at", before)


def test_the_editor_refuses_a_note_months_before_the_incident(page, editor):
    incident = page["incident"]
    before = database_rows()

    response = editor.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {
            "status": "",
            "language": "en",
            "body": "Deployed 4.2.",
            "display_at": _local(incident.started_at - dt.timedelta(days=90)),
        },
    )

    _form_refused_without_trace(response, "display_at", before)
