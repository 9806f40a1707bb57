"""The OpenAPI schema and its docs page."""

import yaml
from django.core.management import call_command


def test_the_schema_is_valid_openapi_without_warnings(tmp_path):
    target = tmp_path / "schema.yaml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))

    schema = yaml.safe_load(target.read_text())
    assert schema["openapi"].startswith("3.")
    assert "/api/v1/incidents/{id}/updates/" in schema["paths"]
    assert schema["components"]["securitySchemes"]["apiToken"] == {
        "type": "http",
        "scheme": "bearer",
        "description": "An API token (Authorization: Bearer …).",
    }


def test_schema_and_docs_are_served_without_login(client):
    schema = client.get("/api/schema/?format=json")
    docs = client.get("/api/docs/")

    assert schema.status_code == 200 and schema.json()["info"]["title"] == "Status page API"
    assert docs.status_code == 200
    assert b"swagger-ui" in docs.content
    assert b"cdn." not in docs.content  # served from our static files, no third-party CDN


def test_the_browsable_api_needs_a_login(client, viewer):
    assert client.get("/api/v1/").status_code == 401
    client.force_login(viewer)
    assert client.get("/api/v1/", HTTP_ACCEPT="text/html").status_code == 200
