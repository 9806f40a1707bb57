"""Request bodies as an attacker sends them: nested JSON, unknown fields, broken JSON, numbers that
are not numbers, Markdown with scripts, and addresses that are not mailboxes. Every refusal is a
4xx naming the field (or the body), nothing is written, and the public pages stay up."""

import json

import pytest
from django.test import Client

from incidents.lifecycle.commands import WritePostmortem
from incidents.lifecycle.postmortems import write_postmortem
from incidents.models import Component, IncidentUpdate
from incidents.probes.webhook import SIGNATURE_HEADER, sign
from incidents.services.probes import issue_push_token, rotate_webhook_secret
from tests.conftest import database_rows
from tests.public.inert import problems_in

from .conftest import (
    assert_api_refused,
    assert_form_refused,
    assert_public_pages_render,
    refused_without_trace,
)

VERY_DEEP = "[" * 100_000
DEEP = "[" * 30_000


@pytest.fixture
def admin_api(client_as):
    return client_as("admin")


@pytest.fixture
def postmortem(page, admin):
    return write_postmortem(
        page["resolved"], WritePostmortem(language="en", sections={"summary": "Slow."}), actor=admin
    )


@pytest.fixture
def action_item(admin_api, postmortem):
    response = admin_api.post(
        "/api/v1/action-items/", {"postmortem": postmortem.pk, "title": {"en": "Add alerts"}}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


@pytest.fixture
def subscriber_id(admin_api, page):
    response = admin_api.post(
        "/api/v1/subscribers/",
        {"email": "ops@example.com", "language": "en", "confirmed": True},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


# Every write of /api/v1/: (method, path built from the fixtures).
WRITES = {
    "create incident": ("post", lambda f: "/api/v1/incidents/"),
    "edit incident": ("patch", lambda f: f"/api/v1/incidents/{f['page']['incident'].public_id}/"),
    "post update": ("post", lambda f: f"/api/v1/incidents/{f['page']['incident'].public_id}/updates/"),
    "resolve": ("post", lambda f: f"/api/v1/incidents/{f['page']['incident'].public_id}/resolve/"),
    "reopen": ("post", lambda f: f"/api/v1/incidents/{f['page']['resolved'].public_id}/reopen/"),
    "create group": ("post", lambda f: "/api/v1/component-groups/"),
    "edit group": ("patch", lambda f: f"/api/v1/component-groups/{f['page']['group'].public_id}/"),
    "create component": ("post", lambda f: "/api/v1/components/"),
    "edit component": ("patch", lambda f: f"/api/v1/components/{f['page']['rest'].public_id}/"),
    "component status": ("post", lambda f: f"/api/v1/components/{f['page']['rest'].public_id}/status/"),
    "create metric": ("post", lambda f: "/api/v1/metrics/"),
    "edit metric": ("patch", lambda f: f"/api/v1/metrics/{f['page']['metric'].pk}/"),
    "create probe": ("post", lambda f: "/api/v1/probes/"),
    "edit probe": ("patch", lambda f: f"/api/v1/probes/{f['probes']['http'].public_id}/"),
    "create postmortem": ("post", lambda f: "/api/v1/postmortems/"),
    "edit postmortem": ("patch", lambda f: f"/api/v1/postmortems/{f['postmortem'].pk}/"),
    "create action item": ("post", lambda f: "/api/v1/action-items/"),
    "edit action item": ("patch", lambda f: f"/api/v1/action-items/{f['action_item']}/"),
    "create subscriber": ("post", lambda f: "/api/v1/subscribers/"),
    "edit subscriber": ("patch", lambda f: f"/api/v1/subscribers/{f['subscriber_id']}/"),
    "create token": ("post", lambda f: "/api/v1/tokens/"),
}


@pytest.fixture
def world(page, probes, postmortem, action_item, subscriber_id):
    return {
        "page": page,
        "probes": probes,
        "postmortem": postmortem,
        "action_item": action_item,
        "subscriber_id": subscriber_id,
    }


def test_the_pages_every_attack_starts_from_render_in_every_language(world):
    assert_public_pages_render(extra_paths=(f"/incidents/{world['page']['incident'].slug}/",))


def send(client, method: str, path: str, text: str):
    return getattr(client, method)(path, text, content_type="application/json")


# --- deep JSON ---


@pytest.mark.parametrize("write", list(WRITES), ids=list(WRITES))
def test_every_api_write_refuses_deeply_nested_json(world, admin_api, write):
    method, path = WRITES[write]
    before = database_rows()
    response = send(admin_api, method, path(world), VERY_DEEP)
    refused_without_trace(response, "body", before)


@pytest.mark.parametrize("depth", [100_000, 30_000, 33])
def test_the_subscribe_endpoint_refuses_deeply_nested_json(page, depth):
    before = database_rows()
    response = Client().post("/subscribe/api/", "[" * depth, content_type="application/json")
    refused_without_trace(response, "body", before)


def test_the_subscribe_endpoint_refuses_deep_json_inside_a_field(page):
    before = database_rows()
    body = '{"email": "a@example.com", "language": "en", "components": ' + DEEP + "}"
    response = Client().post("/subscribe/api/", body, content_type="application/json")
    refused_without_trace(response, "body", before)


def test_the_push_endpoint_refuses_deeply_nested_json(probes, admin):
    token = issue_push_token(probes["push"], actor=admin)
    before = database_rows()
    response = Client().post(
        f"/probes/push/{probes['push'].public_id}/",
        '{"value": ' + DEEP,
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.json().get("field") == "body", response.json()
    refused_without_trace(response, "body", before)


def test_the_webhook_receiver_refuses_deeply_nested_json_even_when_signed(probes, admin):
    secret = rotate_webhook_secret(probes["webhook"], actor=admin)
    body = ('{"nonce": ' + DEEP).encode()
    before = database_rows()
    response = Client().post(
        f"/probes/webhook/{probes['webhook'].public_id}/",
        body,
        content_type="application/json",
        headers={SIGNATURE_HEADER: sign(secret, body)},
    )
    refused_without_trace(response, "body", before)


# --- unknown fields ---


@pytest.mark.parametrize("write", list(WRITES), ids=list(WRITES))
def test_every_api_write_refuses_an_unknown_field_by_name(world, admin_api, write):
    method, path = WRITES[write]
    before = database_rows()
    response = send(admin_api, method, path(world), json.dumps({"__x": 1}))
    assert response.json().get("__x") == ["Unknown field."], response.json()
    refused_without_trace(response, "__x", before)


def test_a_valid_incident_with_one_unknown_field_is_refused_whole(page, admin_api):
    before = database_rows()
    response = admin_api.post(
        "/api/v1/incidents/",
        {"title": "Slow", "language": "en", "body": "Slow.", "impcat": "major"},
        format="json",
    )
    refused_without_trace(response, "impcat", before)


# --- malformed JSON ---


@pytest.mark.parametrize("text", ['{"title": ', "{'title': 'x'}", "\ud800", "NaN", '{"a": NaN}'])
def test_the_api_refuses_malformed_json(page, admin_api, text):
    before = database_rows()
    response = admin_api.post(
        "/api/v1/incidents/", text.encode("utf-8", "surrogatepass"), content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()
    assert database_rows() == before


@pytest.mark.parametrize("text", ["{", "[1, 2]", '"a"', b"\xff\xfe\x00"])
def test_the_subscribe_endpoint_refuses_malformed_json(page, text):
    before = database_rows()
    response = Client().post("/subscribe/api/", text, content_type="application/json")
    refused_without_trace(response, "__all__", before)


@pytest.mark.parametrize("text", ["nope", '{"value": 1', '{"value": NaN}', '{"value": Infinity}'])
def test_the_push_endpoint_refuses_malformed_json(probes, admin, text):
    token = issue_push_token(probes["push"], actor=admin)
    before = database_rows()
    response = Client().post(
        f"/probes/push/{probes['push'].public_id}/",
        text,
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    refused_without_trace(response, "error", before)


# --- numbers that are not numbers ---

NOT_NUMBERS = {
    "NaN text": "NaN",
    "Infinity text": "Infinity",
    "1e400": 1e400,
    "word": "many",
    "huge int": 10**400,
    "list": [1],
}


def not_numbers(*names: str) -> list:
    return [pytest.param(NOT_NUMBERS[name], id=name) for name in names]


def json_text(payload: dict) -> str:
    # json.dumps writes 1e400 as Infinity (not JSON); send the literal an attacker would.
    return json.dumps(payload, allow_nan=True).replace("Infinity", "1e400")


@pytest.mark.parametrize(
    "field", ["degraded_threshold", "partial_outage_threshold", "major_outage_threshold"]
)
@pytest.mark.parametrize("value", not_numbers("NaN text", "Infinity text", "1e400", "word", "huge int"))
def test_metric_thresholds_must_be_finite_numbers(page, admin_api, field, value):
    before = database_rows()
    response = send(admin_api, "patch", f"/api/v1/metrics/{page['metric'].pk}/", json_text({field: value}))
    refused_without_trace(response, field, before)


@pytest.mark.parametrize("field", ["interval", "timeout", "connect_timeout", "read_timeout"])
@pytest.mark.parametrize("value", [*not_numbers("NaN text", "1e400", "word", "huge int", "list"), -1])
def test_probe_intervals_and_timeouts_must_be_numbers_in_range(probes, admin_api, field, value):
    before = database_rows()
    path = f"/api/v1/probes/{probes['http'].public_id}/"
    response = send(admin_api, "patch", path, json_text({field: value}))
    refused_without_trace(response, field, before)


@pytest.mark.parametrize(
    "path",
    [
        lambda p: f"/api/v1/components/{p['rest'].public_id}/",
        lambda p: f"/api/v1/component-groups/{p['group'].public_id}/",
    ],
)
@pytest.mark.parametrize("value", [*not_numbers("word", "huge int", "1e400"), -1, 2**63])
def test_positions_must_be_small_whole_numbers(page, admin_api, path, value):
    before = database_rows()
    response = send(admin_api, "patch", path(page), json_text({"position": value}))
    refused_without_trace(response, "position", before)


@pytest.mark.parametrize(
    "value", [*not_numbers("NaN text", "Infinity text", "1e400", "word", "huge int", "list"), True]
)
def test_pushed_sample_values_must_be_finite_numbers(probes, admin, value):
    token = issue_push_token(probes["push"], actor=admin)
    before = database_rows()
    response = Client().post(
        f"/probes/push/{probes['push'].public_id}/",
        json_text({"value": value}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    refused_without_trace(response, "value", before)


@pytest.mark.parametrize("value", ["-1", "0", "many", "1e400", str(10**30)])
def test_page_sizes_that_are_not_positive_whole_numbers_are_refused(page, admin_api, value):
    response = admin_api.get(f"/api/v1/components/?page_size={value}")
    assert_api_refused(response, "page_size")


@pytest.mark.parametrize("value", ["many", "0", str(10**30)])
def test_pages_that_do_not_exist_are_a_json_404(page, admin_api, value):
    response = admin_api.get(f"/api/v1/components/?page={value}")
    assert_api_refused(response, "page", status=404)


# --- Markdown ---

HOSTILE_MARKDOWN = {
    "script": "Fixed <script>alert('pwned')</script> now.",
    "iframe": 'Fixed <iframe src="https://evil.example/"></iframe> now.',
    "javascript link": "Fixed, see [the report](javascript:alert('pwned')).",
    "img onerror": "Fixed <img src=x onerror=\"alert('pwned')\"> now.",
}


@pytest.mark.parametrize("markdown", list(HOSTILE_MARKDOWN.values()), ids=list(HOSTILE_MARKDOWN))
def test_markdown_is_stored_as_written_and_rendered_inert(page, admin_api, markdown):
    incident = page["incident"]
    response = admin_api.post(
        f"/api/v1/incidents/{incident.public_id}/updates/",
        {"status": "monitoring", "language": "en", "body": markdown},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert IncidentUpdate.objects.get(public_id=response.json()["id"]).body == {"en": markdown}
    client = Client()
    for path in (f"/incidents/{incident.slug}/", "/history.atom", "/history.rss"):
        content = client.get(path).content.decode()
        assert "Fixed" in content, path
        if not path.endswith((".atom", ".rss")):
            assert problems_in(content) == [], path  # the page's own scripts are allowed, no other
        for dangerous in (
            *(("<script",) if path.endswith((".atom", ".rss")) else ()),
            "&lt;script",
            "<iframe",
            "&lt;iframe",
            "javascript:",
            "onerror",
            "alert(",
        ):
            assert dangerous not in content, (path, dangerous)
    assert_public_pages_render()


# --- email addresses ---

BAD_ADDRESSES = {
    "no dotted domain": "a@localhost",
    "address literal": "a@[127.0.0.1]",
    "header injection": "a@b.com\nBcc: x@y.com",
    "carriage return": "a@b.com\rBcc: x@y.com",
    "300 characters": "a" * 288 + "@example.com",
}


def addresses() -> list:
    return [pytest.param(value, id=name) for name, value in BAD_ADDRESSES.items()]


@pytest.mark.parametrize("email", addresses())
def test_the_subscribe_form_refuses_an_address_that_is_not_a_mailbox(page, email):
    before = database_rows()
    response = Client().post("/subscribe/", {"email": email, "language": "en"})
    assert response.status_code == 400
    response.status_code = 200  # the form shown again, as assert_form_refused expects
    assert_form_refused(response, "email")
    assert database_rows() == before


@pytest.mark.parametrize("email", addresses())
def test_the_subscribe_endpoint_refuses_an_address_that_is_not_a_mailbox(page, email):
    before = database_rows()
    response = Client().post(
        "/subscribe/api/", json.dumps({"email": email, "language": "en"}), content_type="application/json"
    )
    refused_without_trace(response, "email", before)


@pytest.mark.parametrize("email", addresses())
def test_the_api_refuses_a_subscriber_address_that_is_not_a_mailbox(page, admin_api, email):
    before = database_rows()
    response = admin_api.post("/api/v1/subscribers/", {"email": email, "language": "en"}, format="json")
    refused_without_trace(response, "email", before)


def test_a_component_written_with_only_unknown_fields_does_not_exist(page, admin_api):
    before = Component.objects.count()
    response = admin_api.post("/api/v1/components/", {"sulg": "edge", "naem": {"en": "Edge"}}, format="json")
    assert_api_refused(response, "sulg")
    assert "naem" in response.json()
    assert Component.objects.count() == before
