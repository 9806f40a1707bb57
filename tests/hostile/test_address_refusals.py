"""The public subscribe forms and JSON endpoint refuse a webhook or chat target whose name stands
for an internal address without saying what the name resolved to: the refusal names the field,
shows no address, and reads the same as for a name that does not resolve at all, so nobody can
map the internal DNS through them. Staff screens keep the detail (a probe's URL)."""

import html
import ipaddress
import re

import pytest
from django.test import Client

from incidents.models import Metric
from tests.conftest import database_rows
from tests.outbound.rebinding import RebindingDns

from .conftest import assert_form_refused

pytestmark = pytest.mark.django_db

INTERNAL_NAME = "intranet.example"
INTERNAL_ADDRESS = "10.20.30.40"
UNKNOWN_NAME = "nowhere.invalid"
ADDRESS = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b|\[?[0-9a-f]{0,4}(?::[0-9a-f]{0,4}){2,7}\]?", re.IGNORECASE)

TARGETS = {
    "webhook": lambda host: {"endpoint_url": f"https://{host}/hooks/status"},
    "slack": lambda host: {"channel": "slack", "target": f"https://{host}/services/T0/B0/secret"},
    "apprise": lambda host: {"channel": "apprise", "target": f"json://{host}/notify"},
}


@pytest.fixture
def internal_dns(monkeypatch, settings):
    """INTERNAL_NAME answers a private address; any other name does not resolve (no DNS here)."""
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False
    dns = RebindingDns(monkeypatch)
    dns.host = INTERNAL_NAME
    dns.rebind(INTERNAL_ADDRESS)
    return dns


def addresses_in(text: str) -> list[str]:
    found = []
    for candidate in ADDRESS.findall(text):
        try:
            found.append(str(ipaddress.ip_address(candidate.strip("[]"))))
        except ValueError:
            continue
    return found


def refusal_through_the_json_endpoint(kind: str, host: str) -> dict:
    body = {"email": "ops@example.com", "language": "en", **TARGETS[kind](host)}
    before = database_rows()

    response = Client().post("/subscribe/api/", body, content_type="application/json")

    assert response.status_code == 400, response.content
    assert database_rows() == before
    return response.json()["errors"]


@pytest.mark.parametrize("kind", TARGETS)
def test_the_json_endpoint_does_not_tell_what_a_name_resolves_to(kind, page, internal_dns):
    errors = refusal_through_the_json_endpoint(kind, INTERNAL_NAME)

    field = "endpoint_url" if kind == "webhook" else "target"
    assert list(errors) == [field], errors
    assert addresses_in(str(errors)) == [], errors
    assert errors == refusal_through_the_json_endpoint(kind, UNKNOWN_NAME)


@pytest.mark.parametrize(
    ("path", "form"),
    [
        ("/subscribe/webhook/", {"endpoint_url": f"https://{INTERNAL_NAME}/hooks/status"}),
        ("/subscribe/chat/slack/", {"target": f"https://{INTERNAL_NAME}/services/T0/B0/secret"}),
    ],
    ids=["webhook", "slack"],
)
def test_the_subscribe_page_does_not_tell_what_a_name_resolves_to(path, form, page, internal_dns):
    before = database_rows()

    response = Client().post(path, {"email": "ops@example.com", "language": "en", **form})

    assert response.status_code == 400
    content = html.unescape(response.content.decode())
    field = "endpoint_url" if "webhook" in path else "target"
    assert f'name="{field}"' in content and 'class="errorlist' in content
    assert INTERNAL_ADDRESS not in content
    assert "cannot be reached from here" in content
    assert database_rows() == before


def test_an_admin_adding_a_probe_still_sees_why_its_address_is_refused(client_as, page, internal_dns):
    metric = Metric.objects.create(component=page["rest"], slug="errors", name={"en": "Errors"}, unit="ms")
    form = {
        "name": "Intranet",
        "kind": "http",
        "metric": metric.pk,
        "url": f"https://{INTERNAL_NAME}/health",
        "interval": 60,
        "timeout": 5,
        "enabled": "on",
        "config": "{}",
        "connect_timeout": 3,
        "read_timeout": 5,
    }

    response = client_as("admin").post("/editor/probes/new/", form)

    assert_form_refused(response, "url")
    assert INTERNAL_ADDRESS in response.content.decode()
