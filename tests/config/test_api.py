"""/api/v1/config/: export, diff and apply for automation, admins only."""

import pytest
import yaml

from incidents.models import AuditEvent, Component, TokenScope
from tests.config.conftest import exported
from tests.conftest import database_rows


def renamed() -> dict:
    document = exported()
    document["components"][0]["name"]["en"] = "Public webhooks"
    return document


@pytest.mark.django_db
def test_an_admin_reads_the_configuration_as_json_or_yaml(client_as, latency_metric):
    client = client_as("admin")

    as_json = client.get("/api/v1/config/")
    as_yaml = client.get("/api/v1/config/", HTTP_ACCEPT="application/yaml")

    assert as_json.status_code == 200 and as_json.json()["components"][0]["slug"] == "webhooks"
    assert as_yaml["Content-Type"].startswith("application/yaml")
    assert yaml.safe_load(as_yaml.content) == as_json.json()
    assert client.get("/api/v1/config/schema/").json()["title"] == "Status page configuration"


@pytest.mark.django_db
def test_diff_and_apply_by_an_admin_token(client_as, latency_metric):
    client = client_as("write_token")

    diff = client.post("/api/v1/config/diff/", renamed(), format="json")
    assert diff.status_code == 200
    assert diff.json()["applied"] == 1
    assert (
        diff.json()["changes"][0]["text"]
        == 'component "webhooks": name.en "Webhook delivery" → "Public webhooks"'
    )
    assert Component.objects.get().name["en"] == "Webhook delivery"

    body = yaml.safe_dump(renamed(), allow_unicode=True)
    applied = client.post("/api/v1/config/apply/", body, content_type="application/yaml")
    assert applied.status_code == 200 and applied.json()["applied"] == 1
    assert Component.objects.get().name["en"] == "Public webhooks"
    assert AuditEvent.objects.get(action="configuration.applied").actor.username == "ada"

    again = client.post("/api/v1/config/apply/", body, content_type="application/yaml")
    assert again.json() == {"changes": [], "applied": 0, "push_tokens": {}}


@pytest.mark.django_db
def test_a_document_with_mistakes_is_a_400_naming_each_path_and_changes_nothing(client_as, latency_metric):
    document = renamed()
    document["components"][0]["group"] = "storage"
    document["metrics"][0]["unit"] = "minutes"
    before = database_rows()

    response = client_as("admin").post("/api/v1/config/apply/", document, format="json")

    assert response.status_code == 400
    assert response.json() == {
        "components[0].group": ['unknown group "storage"'],
        "metrics[0].unit": ['"minutes" is not one of "ms", "s", "%", "count"'],
    }
    assert database_rows() == before


@pytest.mark.django_db
@pytest.mark.parametrize("persona", ["anonymous", "outsider", "viewer", "responder", "read_token"])
def test_others_may_neither_read_nor_apply_the_configuration(
    client_as, persona, latency_metric, token_for, admin
):
    client = client_as(persona)
    before = database_rows()

    reads = client.get("/api/v1/config/")
    diffs = client.post("/api/v1/config/diff/", renamed(), format="json")
    applies = client.post("/api/v1/config/apply/", renamed(), format="json")

    expected = 403 if persona != "anonymous" else 401
    if persona == "read_token":
        assert reads.status_code == 200  # an admin's read-only token reads
    else:
        assert reads.status_code == expected
    assert diffs.status_code == applies.status_code == expected
    assert database_rows() == before


@pytest.mark.django_db
def test_an_intake_token_is_refused(client_as, admin, token_for):
    client = client_as("anonymous")
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_for(admin, TokenScope.INTAKE)}")

    assert client.get("/api/v1/config/").status_code == 403


def test_a_yaml_body_nested_too_deeply_is_a_400_and_changes_nothing(client_as, latency_metric):
    before = database_rows()
    body = "groups: " + "[" * 50000 + "]" * 50000
    response = client_as("admin").post("/api/v1/config/apply/", body, content_type="application/yaml")
    assert response.status_code == 400
    assert "nested too deeply" in response.content.decode()
    assert database_rows() == before
