"""Components by the thousand: a page holds at most PAGE_MAX_COMPONENTS and one import creates at
most IMPORT_MAX_NEW_COMPONENTS, each refusal naming the limit with nothing written, and the
overview of a page with hundreds stays a page, not megabytes."""

import gzip
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client

from incidents.models import Component
from tests.conftest import database_rows
from tests.hostile.conftest import assert_form_refused, refused_without_trace

pytestmark = pytest.mark.django_db

IMPORT_URL = "/api/v1/imports/statuspage/"


def fill_page(count: int) -> None:
    Component.objects.bulk_create(
        Component(slug=f"filler-{n}", name={"en": f"Filler {n}"}, position=n) for n in range(count)
    )


def export_naming(count: int) -> dict:
    """A Statuspage summary naming `count` components (nothing else)."""
    return {
        "page": {"id": "p1", "name": "Elsewhere"},
        "components": [{"id": f"c{n}", "name": f"Imported {n}", "group": False} for n in range(count)],
        "incidents": [],
    }


def test_the_api_refuses_the_1001st_component_naming_the_limit(client_as):
    fill_page(1000)
    before = database_rows()
    response = client_as("admin").post(
        "/api/v1/components/", {"slug": "one-more", "name": {"en": "One more"}}, format="json"
    )
    refused_without_trace(response, "PAGE_MAX_COMPONENTS", before)
    assert "non_field_errors" in response.json()


def test_the_editor_refuses_the_1001st_component_on_its_form(editor):
    fill_page(1000)
    response = editor.post(
        "/editor/components/new/",
        {"slug": "one-more", "position": 0, "status_mode": "manual", "name_en": "One more"},
    )
    assert_form_refused(response, "slug")
    assert "PAGE_MAX_COMPONENTS" in response.content.decode()
    assert Component.objects.count() == 1000


def test_the_admin_refuses_the_1001st_component_on_its_form(admin_client):
    fill_page(1000)
    response = admin_client.post(
        "/admin/incidents/component/add/",
        {
            "slug": "one-more",
            "name": '{"en": "One more"}',
            "description": "{}",
            "position": 0,
            "status_mode": "manual",
            "showcase": "on",
            **{
                f"{name}_{part}": value
                for name in ("created_at", "updated_at")
                for part, value in enumerate(("2026-01-01", "00:00:00"))
            },
            "metrics-TOTAL_FORMS": 0,
            "metrics-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 200
    assert "PAGE_MAX_COMPONENTS" in response.content.decode()
    assert Component.objects.count() == 1000


def test_an_import_creating_501_components_is_refused_with_nothing_written(client_as):
    before = database_rows()
    response = client_as("admin").post(IMPORT_URL, export_naming(501), format="json")
    refused_without_trace(response, "document", before)
    assert "IMPORT_MAX_NEW_COMPONENTS" in json.dumps(response.json())


def test_an_uploaded_import_past_the_page_limit_is_refused_on_its_field(client_as):
    fill_page(900)
    before = database_rows()
    upload = SimpleUploadedFile("summary.json", json.dumps(export_naming(101)).encode(), "application/json")
    response = client_as("admin").post(IMPORT_URL, {"file": upload}, format="multipart")
    refused_without_trace(response, "file", before)
    assert "PAGE_MAX_COMPONENTS" in json.dumps(response.json())


def test_the_import_command_refuses_an_export_over_the_limit(tmp_path):
    source = tmp_path / "summary.json"
    source.write_text(json.dumps(export_naming(501)))
    before = database_rows()
    with pytest.raises(CommandError, match="IMPORT_MAX_NEW_COMPONENTS"):
        call_command("import_statuspage", str(source))
    assert database_rows() == before


def test_the_overview_of_300_components_draws_bars_for_the_first_100_and_lists_every_one():
    fill_page(300)
    sent = Client().get("/", headers={"accept-encoding": "gzip"}).content
    page = gzip.decompress(sent)
    assert page.count(b'<ol class="days"') == 100
    assert page.count(b'class="component"') == 300
    assert b"Filler 299" in page
    assert b"the others have theirs on their own pages" in page
    assert len(sent) < 200_000, (len(sent), len(page))  # bytes a browser is sent
