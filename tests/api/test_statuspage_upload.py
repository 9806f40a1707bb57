"""POST /api/v1/imports/statuspage/: an admin uploads a Statuspage export; it arrives as records."""

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from incidents.models import Delivery, Incident, IncidentUpdate, TokenScope
from tests.services.test_statuspage_import import ENGLISH_EXPORT

URL = "/api/v1/imports/statuspage/"


@pytest.fixture
def write_token_client(api, admin, token_for):
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token_for(admin, TokenScope.READ_WRITE)}")
    return api


def counts() -> tuple[int, int]:
    return Incident.objects.count(), IncidentUpdate.objects.count()


def test_a_json_body_is_imported_as_records_and_a_second_upload_creates_nothing(write_token_client):
    first = write_token_client.post(URL, ENGLISH_EXPORT, format="json")
    after_first = counts()
    second = write_token_client.post(URL, ENGLISH_EXPORT, format="json")

    assert first.status_code == 200, first.json()
    assert first.json()["incidents_created"] == 2
    assert first.json()["updates_created"] == after_first[1]
    assert first.json()["incidents_skipped"] == 0
    assert second.status_code == 200
    assert second.json() | {"components_created": 0} == {
        "incidents_created": 0,
        "updates_created": 0,
        "components_created": 0,
        "incidents_skipped": 2,
    }
    assert counts() == after_first
    imported = Incident.objects.get(statuspage_id="r4t8y2u6i0o3")
    assert imported.backfilled and imported.title == {"en": "Delayed webhook deliveries"}
    assert not Delivery.objects.exists()


def test_a_multipart_file_in_a_language_is_imported(client_as):
    upload = SimpleUploadedFile("incidents.json", json.dumps(ENGLISH_EXPORT).encode(), "application/json")

    response = client_as("admin").post(URL, {"file": upload, "language": "nb"}, format="multipart")

    assert response.status_code == 200, response.json()
    assert response.json()["incidents_created"] == 2
    assert Incident.objects.get(statuspage_id="h5j9k3l7z1x4").title == {"nb": "Dashboard sign-in failures"}


@pytest.mark.parametrize("persona", ["viewer", "responder", "read_token"])
def test_only_an_admin_with_write_scope_may_import(client_as, persona):
    response = client_as(persona).post(URL, ENGLISH_EXPORT, format="json")

    assert response.status_code == 403
    assert not Incident.objects.exists()


def test_an_anonymous_upload_is_refused_with_401(api, db):
    assert api.post(URL, ENGLISH_EXPORT, format="json").status_code == 401


def test_a_file_that_is_not_json_is_refused_naming_the_file(client_as):
    upload = SimpleUploadedFile("incidents.json", b"{not json", "application/json")

    response = client_as("admin").post(URL, {"file": upload}, format="multipart")

    assert response.status_code == 400
    assert "not JSON" in response.json()["file"][0]
    assert counts() == (0, 0)


def test_bad_json_in_the_body_is_refused(client_as):
    response = client_as("admin").post(URL, b'{"incidents": [', content_type="application/json")

    assert response.status_code == 400
    assert counts() == (0, 0)


def test_a_bad_incident_is_refused_naming_it_and_its_field_with_nothing_written(client_as):
    export = copy.deepcopy(ENGLISH_EXPORT)
    export["incidents"][1]["resolved_at"] = "2999-01-01T00:00:00Z"

    response = client_as("admin").post(URL, export, format="json")

    assert response.status_code == 400
    message = response.json()["document"][0]
    assert "h5j9k3l7z1x4" in message and "resolved_at" in message
    assert counts() == (0, 0)


def test_a_url_is_fetched_through_the_outbound_guard(client_as):
    response = client_as("admin").post(URL, {"url": "http://169.254.169.254/latest/"}, format="json")

    assert response.status_code == 400
    assert response.json()["url"]
    assert counts() == (0, 0)


def test_an_unknown_language_is_refused(client_as):
    response = client_as("admin").post(f"{URL}?language=xx", ENGLISH_EXPORT, format="json")

    assert response.status_code == 400 and "language" in response.json()
    assert counts() == (0, 0)


def test_the_upload_is_in_the_schema(client):
    operation = client.get("/api/schema/?format=json").json()["paths"][URL]["post"]

    assert set(operation["requestBody"]["content"]) == {"multipart/form-data", "application/json"}
    assert {"200", "400", "401", "403"} <= set(operation["responses"])
