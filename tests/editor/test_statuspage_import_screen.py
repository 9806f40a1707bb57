"""An admin uploads a Statuspage export in the editor; it arrives as records, once."""

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from incidents.models import Delivery, Incident, IncidentUpdate
from tests.services.test_statuspage_import import ENGLISH_EXPORT

pytestmark = pytest.mark.django_db

URL = "/editor/import/statuspage/"


def upload(document: dict | bytes, language: str = "en") -> dict:
    data = document if isinstance(document, bytes) else json.dumps(document).encode()
    return {"file": SimpleUploadedFile("incidents.json", data, "application/json"), "language": language}


def test_an_admin_imports_an_export_once(clients):
    first = clients["admin"].post(URL, upload(ENGLISH_EXPORT), follow=True)
    rows = (Incident.objects.count(), IncidentUpdate.objects.count())
    second = clients["admin"].post(URL, upload(ENGLISH_EXPORT), follow=True)

    assert "Imported 2 incidents" in first.content.decode()
    assert "Imported 0 incidents" in second.content.decode()
    assert (Incident.objects.count(), IncidentUpdate.objects.count()) == rows
    assert Incident.objects.filter(backfilled=True).count() == 2
    assert not Delivery.objects.exists()


def test_the_form_is_linked_for_admins_only(clients):
    assert URL in clients["admin"].get("/editor/").content.decode()
    assert URL not in clients["responder"].get("/editor/").content.decode()


@pytest.mark.parametrize("persona", ["viewer", "responder"])
def test_others_may_not_import(clients, persona):
    assert clients[persona].get(URL).status_code == 403
    assert clients[persona].post(URL, upload(ENGLISH_EXPORT)).status_code == 403
    assert not Incident.objects.exists()


def test_a_bad_export_is_refused_on_the_file_field_with_nothing_written(clients):
    export = copy.deepcopy(ENGLISH_EXPORT)
    export["incidents"][1]["resolved_at"] = "2999-01-01T00:00:00Z"

    refused = clients["admin"].post(URL, upload(export))
    not_json = clients["admin"].post(URL, upload(b"{nope"))

    assert refused.status_code == 200 and not_json.status_code == 200
    assert "h5j9k3l7z1x4" in refused.context["form"].errors["file"][0]
    assert "resolved_at" in refused.context["form"].errors["file"][0]
    assert "not JSON" in not_json.context["form"].errors["file"][0]
    assert not Incident.objects.exists()
