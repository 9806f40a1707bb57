"""Hostile URLs in every field that takes one: probe URLs (API and editor, an HTTP and an
upstream probe), and webhook endpoints (the /subscribe/ form, /subscribe/api/ and the API's
subscribers). Metadata, link-local, multicast, unspecified, reserved and wrapped IPv4 forms are
refused with and without OUTBOUND_ALLOW_PRIVATE_TARGETS; shared address space only without it.
Each refusal names the field, answers 4xx (or shows the form again) and writes nothing."""

import html

import pytest
from django.test import Client

from incidents.models import Metric
from tests.conftest import database_rows

from .conftest import assert_api_refused, assert_form_refused, assert_public_pages_render

pytestmark = pytest.mark.django_db

ALWAYS_REFUSED = {
    "ipv4-mapped metadata": "http://[::ffff:169.254.169.254]/latest/meta-data/",
    "ecs credentials": "http://169.254.170.2/v2/credentials",
    "ipv6 link-local": "http://[fe80::1]/",
    "alibaba metadata": "http://100.100.100.200/latest/meta-data/",
    "multicast": "http://224.0.0.1/",
    "unspecified ipv4": "http://0.0.0.0:8080/",
    "unspecified ipv6": "http://[::]/",
    "nat64 metadata": "http://[64:ff9b::a9fe:a9fe]/",
    "6to4 metadata": "http://[2002:a9fe:a9fe::]/",
    "metadata host name": "http://metadata.google.internal/computeMetadata/v1/",
    "file": "file:///etc/passwd",
    "gopher": "gopher://127.0.0.1:25/_HELO",
    "javascript": "javascript:alert(1)",
    "credentials": "http://admin:hunter2@93.184.216.34/health",
    "over-long": "http://93.184.216.34/" + "a" * 2100,
}
REFUSED_UNLESS_PRIVATE_ALLOWED = {"shared address space": "http://100.64.0.1/"}

CASES = [
    pytest.param(url, allow_private, id=f"{name}-{'private allowed' if allow_private else 'default'}")
    for name, url in ALWAYS_REFUSED.items()
    for allow_private in (False, True)
] + [pytest.param(url, False, id=f"{name}-default") for name, url in REFUSED_UNLESS_PRIVATE_ALLOWED.items()]


@pytest.fixture
def spare_metric(page):
    return Metric.objects.create(component=page["rest"], slug="errors", name={"en": "Errors"}, unit="ms")


def probe_body(metric: Metric, url: str, kind: str) -> dict:
    return {"name": "Hostile", "kind": kind, "metric": metric.pk, "url": url, "interval": 60, "timeout": 5}


@pytest.mark.parametrize("kind", ["http", "upstream"])
@pytest.mark.parametrize(("url", "allow_private"), CASES)
def test_probe_url_through_the_api(client_as, spare_metric, settings, url, allow_private, kind):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = allow_private
    before = database_rows()

    response = client_as("admin").post("/api/v1/probes/", probe_body(spare_metric, url, kind), format="json")

    assert_api_refused(response, "url")
    assert database_rows() == before


@pytest.mark.parametrize(("url", "allow_private"), CASES)
def test_probe_url_through_the_editor(client_as, spare_metric, settings, url, allow_private):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = allow_private
    form = {
        **probe_body(spare_metric, url, "http"),
        "enabled": "on",
        "config": "{}",
        "connect_timeout": 3,
        "read_timeout": 5,
    }
    before = database_rows()

    response = client_as("admin").post("/editor/probes/new/", form)

    assert_form_refused(response, "url")
    assert database_rows() == before


@pytest.mark.parametrize(("url", "allow_private"), CASES)
def test_webhook_endpoint_through_the_subscribe_form(page, settings, url, allow_private):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = allow_private
    before = database_rows()

    response = Client().post(
        "/subscribe/webhook/", {"email": "hooks@example.com", "endpoint_url": url, "language": "en"}
    )

    assert response.status_code == 400, response.status_code
    content = html.unescape(response.content.decode())
    assert 'class="errorlist' in content and 'name="endpoint_url"' in content
    assert database_rows() == before


@pytest.mark.parametrize(("url", "allow_private"), CASES)
def test_webhook_endpoint_through_the_public_json_endpoint(page, settings, url, allow_private):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = allow_private
    before = database_rows()

    response = Client().post(
        "/subscribe/api/",
        {"email": "hooks@example.com", "endpoint_url": url, "language": "en"},
        content_type="application/json",
    )

    assert_api_refused(response, "endpoint_url")
    assert database_rows() == before


@pytest.mark.parametrize(("url", "allow_private"), CASES)
def test_webhook_endpoint_through_the_api(client_as, page, settings, url, allow_private):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = allow_private
    before = database_rows()

    response = client_as("admin").post(
        "/api/v1/subscribers/",
        {"email": "hooks@example.com", "endpoint_url": url, "language": "en"},
        format="json",
    )

    assert_api_refused(response, "endpoint_url")
    assert database_rows() == before


def test_after_every_kind_of_refusal_the_public_pages_still_render(client_as, spare_metric, settings):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    admin = client_as("admin")
    for url in ALWAYS_REFUSED.values():
        admin.post("/api/v1/probes/", probe_body(spare_metric, url, "http"), format="json")
        Client().post("/subscribe/api/", {"email": "h@example.com", "endpoint_url": url}, "application/json")

    assert_public_pages_render()
