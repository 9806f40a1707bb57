"""JSON bodies built to make reading them expensive or to store what cannot be stored: strings that
never close, escaped quotes by the thousand, bodies larger than their endpoint needs, NUL
characters and unpaired surrogates. Each is refused with a JSON 4xx naming the body or the field,
and nothing is written. (How fast the scan is belongs to `make bench-scan`, not to these tests.)"""

import copy
import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from incidents.models import Component, Subscriber, TokenScope
from incidents.services.api_tokens import issue_token
from incidents.services.probes import issue_push_token
from incidents.validation.json_bodies import json_depth_exceeds
from tests.conftest import database_rows
from tests.intake.payloads import alertmanager
from tests.services.test_statuspage_import import ENGLISH_EXPORT

from .conftest import refused_without_trace

IMPORT = "/api/v1/imports/statuspage/"
# A string that never closes, of escaped quotes each followed by a bracket: a scan that starts a
# string again at every quote it meets counts the brackets as nesting.
NEVER_CLOSING = '{"email": "' + '\\"[' * 20_000


@pytest.fixture
def admin_api(client_as):
    return client_as("admin")


def send_json(client, path: str, text: str, **extra):
    return client.post(path, text, content_type="application/json", **extra)


# --- the scan ---


def reference_depth_exceeds(text: str, limit: int) -> bool | None:
    """JSON's own reading, one character at a time; None where JSON gives up (a backslash
    outside a string) before nesting too deeply."""
    depth, inside, index = 0, False, 0
    while index < len(text):
        character = text[index]
        if inside:
            index += character == "\\"
            inside = character != '"'
        elif character == "\\":
            return None
        elif character == '"':
            inside = True
        elif character in "[{":
            depth += 1
            if depth > limit:
                return True
        elif character in "]}":
            depth -= 1
        index += 1
    return False


def test_the_scan_counts_only_brackets_json_reads_as_nesting():
    # Brackets inside a string that never closes, or after escaped quotes, are text.
    assert json_depth_exceeds('["' + "[" * 40, 32) is False
    assert json_depth_exceeds('{"a": "' + '\\"[' * 40, 32) is False
    assert json_depth_exceeds('["\\\\"' + ", [" * 33, 32) is True  # an escaped backslash closes
    generator = random.Random(31)
    for _case in range(3000):
        text = "".join(generator.choice('[]{}"\\ a,') for _ in range(generator.randint(0, 40)))
        for limit in (0, 1, 3):
            expected = reference_depth_exceeds(text, limit)
            if expected is not None:
                assert json_depth_exceeds(text, limit) is expected, (text, limit)


def test_a_never_closing_string_of_escaped_quotes_is_refused_as_not_json_by_the_subscribe_endpoint(page):
    before = database_rows()
    response = send_json(Client(), "/subscribe/api/", NEVER_CLOSING)
    refused_without_trace(response, "__all__", before)
    assert "nested" not in json.dumps(response.json()), response.json()


def test_a_never_closing_string_of_escaped_quotes_is_refused_as_not_json_by_the_api(page, admin_api):
    before = database_rows()
    response = send_json(admin_api, "/api/v1/incidents/", NEVER_CLOSING)
    refused_without_trace(response, "Unterminated string", before)


# --- body sizes ---


@pytest.mark.parametrize("length", [256 * 1024, 3 * 1024 * 1024], ids=["256 KiB", "3 MiB"])
def test_the_subscribe_endpoint_refuses_a_body_larger_than_it_needs_with_json(page, length):
    body = json.dumps({"email": "a@example.com", "language": "en", "components": []})
    before = database_rows()
    response = send_json(Client(), "/subscribe/api/", body + " " * (length - len(body)))
    refused_without_trace(response, "body", before, status=413)
    assert response.json()["errors"]["body"], response.json()


def test_a_subscription_to_a_thousand_components_with_the_longest_slugs_fits_the_subscribe_body(page):
    slugs = [f"{index:04d}-" + "x" * 45 for index in range(1000)]
    Component.objects.bulk_create([Component(slug=slug, name={"en": slug}, position=9) for slug in slugs])
    body = json.dumps({"email": "many@example.com", "language": "en", "components": slugs}, indent=2)

    response = send_json(Client(), "/subscribe/api/", body)

    assert response.status_code == 202, response.content[:300]
    assert Subscriber.objects.get(email="many@example.com").components.count() == 1000


def test_the_push_endpoint_names_the_body_it_refuses_as_too_large(probes, admin, settings):
    token = issue_push_token(probes["push"], actor=admin)
    before = database_rows()
    response = send_json(
        Client(),
        f"/probes/push/{probes['push'].public_id}/",
        '{"value": 1}' + " " * settings.PUSH_MAX_BODY_BYTES,
        headers={"Authorization": f"Bearer {token}"},
    )
    refused_without_trace(response, "body", before, status=413)
    assert response.json()["field"] == "body", response.json()


def padded_export(size: int) -> bytes:
    document = json.dumps(ENGLISH_EXPORT).encode()
    return document + b" " * (size - len(document))


def test_an_import_larger_than_other_api_bodies_is_taken(admin_api, settings):
    upload = SimpleUploadedFile("incidents.json", padded_export(settings.API_MAX_BODY_BYTES + 1))
    response = admin_api.post(IMPORT, {"file": upload}, format="multipart")
    assert response.status_code == 200, response.content[:300]
    assert response.json()["incidents_created"] == 2


def test_an_import_larger_than_its_own_limit_is_refused_with_json(admin_api, settings):
    settings.IMPORT_MAX_BODY_BYTES = 64 * 1024
    before = database_rows()
    response = send_json(admin_api, IMPORT, padded_export(64 * 1024 + 1).decode())
    refused_without_trace(response, "body", before, status=413)


# --- NUL characters and unpaired surrogates ---


def test_a_nul_in_an_intake_label_name_is_refused_naming_it(page, responder):
    _token, secret = issue_token(responder, name="alertmanager", scope=TokenScope.INTAKE, actor=responder)
    payload = alertmanager("firing")
    payload["alerts"][0]["labels"]["ser\x00vice"] = "webhooks"
    before = database_rows()
    response = send_json(
        Client(), "/api/v1/intake/alertmanager/", json.dumps(payload), HTTP_AUTHORIZATION=f"Bearer {secret}"
    )
    refused_without_trace(response, "alerts", before)
    assert "alerts[0].labels.ser\\u0000vice" in response.json()["alerts"][0], response.json()


def test_a_nul_in_an_imported_incident_name_is_refused_naming_it(page, admin_api):
    export = copy.deepcopy(ENGLISH_EXPORT)
    export["incidents"][1]["name"] = "Sign-in\x00failures"
    before = database_rows()
    response = send_json(admin_api, IMPORT, json.dumps(export))
    refused_without_trace(response, "incidents[1].name", before)

    upload = SimpleUploadedFile("incidents.json", json.dumps(export).encode())
    response = admin_api.post(IMPORT, {"file": upload}, format="multipart")
    refused_without_trace(response, "incidents[1].name", before)
    assert "file" in response.json(), response.json()


def test_an_unpaired_surrogate_in_an_imported_update_is_refused_naming_it(page, admin_api):
    export = copy.deepcopy(ENGLISH_EXPORT)
    export["incidents"][0]["incident_updates"][1]["body"] = "A fix is out \ud800"
    before = database_rows()
    upload = SimpleUploadedFile("incidents.json", json.dumps(export).encode())  # written as \\ud800
    response = admin_api.post(IMPORT, {"file": upload}, format="multipart")
    refused_without_trace(response, "incidents[0].incident_updates[1].body", before)
    assert "file" in response.json(), response.json()


def test_a_nul_in_a_key_of_a_subscribe_body_is_refused_naming_it(page):
    before = database_rows()
    body = '{"email": "a@example.com", "language": "en", "comp\\u0000onents": []}'
    response = send_json(Client(), "/subscribe/api/", body)
    refused_without_trace(response, "errors", before)
    assert "comp\\u0000onents" in response.json()["errors"], response.json()
