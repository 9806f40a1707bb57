"""Titles no one can see or that lie about their direction, zone names that are no place, times
without an offset, owners that probe for user names and an import whose list is a number: each
refused through the API and the editor with the field named, and nothing written."""

import pytest
from django.contrib.auth import get_user_model

from incidents.lifecycle.commands import WritePostmortem
from incidents.lifecycle.postmortems import write_postmortem
from incidents.models import Incident
from tests.conftest import database_rows

from .conftest import assert_form_refused, refused_without_trace

BAD_TITLES = {
    "zero-width only": "\u200b\u200c\u200d\u2060\ufeff",
    "right-to-left override": "Invoice \u202egpj.exe",
    "isolate": "Outage \u2066in\u2069 Oslo",
    "bell": "Database\x07 down",
    "line break": "Database down\r\nBcc: everyone@example.com",
}


def cases(values: dict) -> list:
    return [pytest.param(value, id=name) for name, value in values.items()]


@pytest.mark.parametrize("title", cases(BAD_TITLES))
def test_the_api_refuses_a_title_no_one_can_read_as_written(page, client_as, title):
    before = database_rows()

    response = client_as("responder").post(
        "/api/v1/incidents/", {"title": title, "language": "en", "body": "Looking."}, format="json"
    )

    refused_without_trace(response, "title", before)


@pytest.mark.parametrize("title", cases(BAD_TITLES))
def test_the_editor_refuses_a_title_no_one_can_read_as_written(page, editor, title):
    before = database_rows()

    response = editor.post(
        "/editor/incidents/new/", {"title": title, "impact": "minor", "language": "en", "body": "Looking."}
    )

    assert_form_refused(response, "title")
    assert 'id="id_title_error"' in response.content.decode()
    assert database_rows() == before


def test_the_api_refuses_to_rename_an_incident_with_a_direction_override(page, client_as):
    incident = page["incident"]
    before = database_rows()

    response = client_as("responder").patch(
        f"/api/v1/incidents/{incident.public_id}/", {"title": {"en": "Fixed \u202edesab"}}, format="json"
    )

    refused_without_trace(response, "title", before)


def test_the_editor_refuses_to_rename_an_incident_to_zero_width_spaces(page, editor):
    incident = page["incident"]
    before = database_rows()

    response = editor.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {"title": "\u200b\u200b", "impact": "minor", "version": incident.version},
    )

    assert_form_refused(response, "title")
    assert database_rows() == before


def test_the_api_refuses_an_action_item_titled_with_zero_width_spaces(page, client_as, admin):
    postmortem = write_postmortem(
        page["resolved"], WritePostmortem(language="en", sections={"summary": "Why."}), actor=admin
    )
    before = database_rows()

    response = client_as("responder").post(
        "/api/v1/action-items/", {"postmortem": postmortem.pk, "title": {"en": "\u200b"}}, format="json"
    )

    refused_without_trace(response, "title", before)


@pytest.mark.parametrize("zone", ["localtime", "Factory"])
def test_a_zone_that_names_no_place_is_refused(page, client_as, editor, zone):
    incident = page["incident"]
    before = database_rows()

    response = client_as("responder").patch(
        f"/api/v1/incidents/{incident.public_id}/", {"display_time_zone": zone}, format="json"
    )
    form = editor.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {"title": "Renamed", "impact": "minor", "display_time_zone": zone, "version": incident.version},
    )

    refused_without_trace(response, "display_time_zone", before)
    assert_form_refused(form, "display_time_zone")
    assert Incident.objects.get(pk=incident.pk).display_time_zone == ""


@pytest.mark.parametrize("started_at", ["2026-11-01T10:00:00", "2026-11-01T10:00", "2026-11-01"])
def test_the_api_refuses_a_time_without_its_offset(page, client_as, started_at):
    before = database_rows()

    response = client_as("responder").post(
        "/api/v1/incidents/",
        {"title": "Slow", "language": "en", "body": "Looking.", "started_at": started_at},
        format="json",
    )

    refused_without_trace(response, "started_at", before)


def test_an_owner_who_is_no_staff_member_looks_like_an_unknown_name(page, client_as, admin, outsider):
    postmortem = write_postmortem(
        page["resolved"], WritePostmortem(language="en", sections={"summary": "Why."}), actor=admin
    )
    get_user_model().objects.create_user("gone", is_staff=True, is_active=False)
    before = database_rows()
    responder = client_as("responder")

    def assign(owner: str):
        body = {"postmortem": postmortem.pk, "title": {"en": "Alert on lag"}, "owner": owner}
        return responder.post("/api/v1/action-items/", body, format="json")

    answers = {name: assign(name) for name in ("nobody-by-this-name", outsider.username, "gone")}

    for name, response in answers.items():
        refused_without_trace(response, "owner", before)
        assert response.json()["owner"] == [
            message.replace("nobody-by-this-name", name)
            for message in answers["nobody-by-this-name"].json()["owner"]
        ]


def test_an_import_whose_affected_components_is_a_number_is_refused(page, client_as):
    update = {
        "id": "upd1",
        "status": "resolved",
        "body": "Fixed.",
        "created_at": "2018-03-01T11:00:00Z",
        "affected_components": 5,
    }
    export = {
        "id": "inc1",
        "name": "Delayed deliveries",
        "status": "resolved",
        "impact": "minor",
        "created_at": "2018-03-01T10:00:00Z",
        "resolved_at": "2018-03-01T11:00:00Z",
        "incident_updates": [update],
    }
    before = database_rows()

    response = client_as("admin").post("/api/v1/imports/statuspage/", {"incidents": [export]}, format="json")

    refused_without_trace(response, "affected_components", before)


def test_an_import_titled_with_a_direction_override_is_refused(page, client_as):
    export = {
        "id": "inc2",
        "name": "Invoice \u202egpj.exe",
        "status": "resolved",
        "impact": "minor",
        "created_at": "2018-03-01T10:00:00Z",
        "resolved_at": "2018-03-01T11:00:00Z",
        "incident_updates": [],
    }
    before = database_rows()

    response = client_as("admin").post("/api/v1/imports/statuspage/", {"incidents": [export]}, format="json")

    refused_without_trace(response, "name", before)
