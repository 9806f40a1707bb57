"""A display time zone that is not an IANA name is refused through the API and the editor, naming
the field, with nothing written and the public pages still up in every language."""

import pytest

from incidents.models import Incident
from tests.conftest import database_rows

from .conftest import assert_api_refused, assert_form_refused

NOT_ZONES = {
    "fiction": "Mars/Olympus",
    "wrong case": "europe/moscow",
    "abbreviation": "MSK",
    "offset": "+03:00",
    "path": "../../etc/passwd",
    "too long": "Europe/" + "A" * 200,
    "nul": "Europe/Mos\x00cow",
}
NOT_STRINGS = {"number": 3, "list": ["Europe/Moscow"], "null": None, "object": {"name": "UTC"}}


def cases(values: dict) -> list:
    return [pytest.param(value, id=name) for name, value in values.items()]


@pytest.mark.parametrize("value", cases({**NOT_ZONES, **NOT_STRINGS}))
def test_the_api_refuses_to_declare_an_incident_in_an_unknown_zone(page, client_as, value):
    before = database_rows()
    response = client_as("responder").post(
        "/api/v1/incidents/",
        {"title": "Dust storm", "language": "en", "body": "Looking.", "display_time_zone": value},
        format="json",
    )
    assert_api_refused(response, "display_time_zone")
    assert database_rows() == before


@pytest.mark.parametrize("value", cases({**NOT_ZONES, **NOT_STRINGS}))
def test_the_api_refuses_to_move_an_incident_to_an_unknown_zone(page, client_as, value):
    incident = Incident.objects.get(pk=page["incident"].pk)
    before = database_rows()
    response = client_as("responder").patch(
        f"/api/v1/incidents/{incident.public_id}/",
        {"impact": "critical", "display_time_zone": value},
        format="json",
    )
    assert_api_refused(response, "display_time_zone")
    assert database_rows() == before
    unchanged = Incident.objects.get(pk=incident.pk)
    assert (unchanged.display_time_zone, unchanged.impact, unchanged.version) == (
        "",
        incident.impact,
        incident.version,
    )


@pytest.mark.parametrize("value", cases(NOT_ZONES))
def test_the_editor_refuses_to_declare_an_incident_in_an_unknown_zone(page, editor, value):
    before = database_rows()
    response = editor.post(
        "/editor/incidents/new/",
        {
            "title": "Dust storm",
            "impact": "minor",
            "language": "en",
            "body": "Looking.",
            "display_time_zone": value,
        },
    )
    assert_form_refused(response, "display_time_zone")
    assert 'id="id_display_time_zone_error"' in response.content.decode()
    assert database_rows() == before


@pytest.mark.parametrize("value", cases(NOT_ZONES))
def test_the_editor_refuses_to_move_an_incident_to_an_unknown_zone(page, editor, value):
    incident = page["incident"]
    before = database_rows()
    response = editor.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {"title": "Renamed", "impact": "critical", "display_time_zone": value, "version": incident.version},
    )
    assert_form_refused(response, "display_time_zone")
    assert database_rows() == before
    assert Incident.objects.get(pk=incident.pk).display_time_zone == ""
