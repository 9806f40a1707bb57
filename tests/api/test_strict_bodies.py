"""Bodies of our API: nesting bounded, unknown fields refused by name, JSON 404s under /api/."""

import inspect

import pytest
from rest_framework import serializers as drf_serializers

from incidents.api import (
    incident_serializers,
    probe_serializers,
    serializers,
    subscriber_serializers,
)
from incidents.api.strict import RejectUnknownFields
from incidents.models import AuditEvent
from incidents.validation.json_bodies import json_depth_exceeds


@pytest.mark.parametrize(
    ("text", "too_deep"),
    [
        ("[" * 100_000, True),
        ("[" * 32 + "]" * 32, False),
        ("[" * 33 + "]" * 33, True),
        ('{"a": "' + "[" * 1000 + '"}', False),  # brackets inside a string do not nest
        ('["\\"' + "{" * 1000 + '"]', False),  # nor after an escaped quote
        ('{"a": {"b": [1, 2, {"c": []}]}}', False),
    ],
)
def test_depth_is_counted_outside_strings(settings, text, too_deep):
    assert json_depth_exceeds(text, settings.JSON_MAX_DEPTH) is too_deep


def test_every_serializer_of_our_api_refuses_unknown_fields():
    modules = (serializers, incident_serializers, probe_serializers, subscriber_serializers)
    lax = [
        f"{module.__name__}.{name}"
        for module in modules
        for name, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, drf_serializers.Serializer)
        and cls.__module__ == module.__name__
        and not issubclass(cls, RejectUnknownFields)
    ]
    assert lax == []


def test_a_patch_with_only_an_unknown_field_changes_nothing(page, client_as):
    incident = page["incident"]
    events = AuditEvent.objects.count()
    response = client_as("responder").patch(
        f"/api/v1/incidents/{incident.public_id}/", {"__x": 1}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {"__x": ["Unknown field."]}
    incident.refresh_from_db()
    assert incident.version == page["incident"].version
    assert AuditEvent.objects.count() == events


def test_an_unknown_field_inside_a_nested_item_is_named(page, client_as):
    response = client_as("responder").post(
        f"/api/v1/incidents/{page['incident'].public_id}/updates/",
        {
            "status": "identified",
            "language": "en",
            "body": "x",
            "components": [{"component": page["webhooks"].public_id, "status": "operational", "why": 1}],
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == {"components": {"0": {"why": ["Unknown field."]}}}


def test_fields_the_api_shows_may_be_sent_back(page, client_as):
    client = client_as("admin")
    shown = client.get(f"/api/v1/components/{page['rest'].public_id}/").json()
    response = client.patch(f"/api/v1/components/{page['rest'].public_id}/", shown, format="json")
    assert response.status_code == 200, response.json()


def test_the_browsable_api_form_token_is_not_an_unknown_field(page, client_as):
    response = client_as("admin").post(
        "/api/v1/component-groups/",
        {"csrfmiddlewaretoken": "x", "slug": "edge", "name.en": "Edge"},
    )
    assert response.status_code != 400 or "csrfmiddlewaretoken" not in response.json()


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/incidents/NOT-AN-ID!/",
        "/api/v1/components/%00/",
        "/api/v1/no-such-resource/",
        "/api/nothing/",
        "/api/v2/nothing.json",
    ],
)
def test_unknown_paths_under_api_answer_json_404(client_as, db, path):
    response = client_as("admin").get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json() == {"detail": "Not found."}


def test_other_unknown_paths_keep_the_site_404_page(client, db):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    assert b"Page not found" in response.content
