"""Alert rules through the REST API: admins write, staff read, bad matchers named."""

import pytest
from rest_framework.test import APIClient

from incidents.models import AlertRule, AuditEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_admin(admin):
    client = APIClient()
    client.force_login(admin)
    return client


def test_a_rule_is_created_read_changed_and_deleted(as_admin, webhooks):
    created = as_admin.post(
        "/api/v1/alert-rules/",
        {"name": "Webhooks", "matchers": ["service = webhooks", 'env!="staging"'], "component": "webhooks"},
        format="json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["matchers"] == ['service="webhooks"', 'env!="staging"']
    assert body["status"] == "major_outage" and body["open_incident"] is True

    changed = as_admin.patch(
        f"/api/v1/alert-rules/{body['id']}/", {"status": "partial_outage"}, format="json"
    )
    assert changed.status_code == 200 and changed.json()["status"] == "partial_outage"
    assert as_admin.delete(f"/api/v1/alert-rules/{body['id']}/").status_code == 204
    assert not AlertRule.objects.exists()
    assert [e.action for e in AuditEvent.objects.filter(subject_type="alert_rule").order_by("pk")] == [
        "alert_rule.created",
        "alert_rule.changed",
        "alert_rule.deleted",
    ]


def test_a_delete_naming_a_stale_version_is_refused_and_the_rule_kept(as_admin, webhooks):
    created = as_admin.post(
        "/api/v1/alert-rules/", {"name": "R", "matchers": ['a="b"'], "component": "webhooks"}, format="json"
    )
    url = f"/api/v1/alert-rules/{created.json()['id']}/"
    as_admin.patch(url, {"status": "partial_outage"}, format="json")

    stale = as_admin.delete(url, HTTP_IF_MATCH=created["ETag"])
    current = as_admin.delete(url, HTTP_IF_MATCH=as_admin.patch(url, {}, format="json")["ETag"])

    assert (stale.status_code, current.status_code) == (412, 204)
    assert not AlertRule.objects.exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"matchers": ["nonsense"]}, "matchers"),
        ({"matchers": []}, "matchers"),
        ({"matchers": 'service="x"'}, "matchers"),
        ({"component": "no-such-component"}, "component"),
        ({"status": "operational"}, "status"),
        ({"source": "nagios"}, "source"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_a_bad_rule_is_refused_naming_the_field(as_admin, webhooks, body, field):
    payload = {"name": "R", "matchers": ['service="webhooks"'], "component": "webhooks", **body}

    response = as_admin.post("/api/v1/alert-rules/", payload, format="json")

    assert response.status_code == 400 and field in response.json(), response.content
    assert not AlertRule.objects.exists()


def test_a_rule_cannot_point_at_a_component_set_by_hand(as_admin, make_component):
    make_component("docs", name={"en": "Docs"})

    response = as_admin.post(
        "/api/v1/alert-rules/",
        {"name": "R", "matchers": ['service="docs"'], "component": "docs"},
        format="json",
    )

    assert response.status_code == 400 and "component" in response.json()


def test_responders_read_rules_but_do_not_write_them(responder, webhooks):
    client = APIClient()
    client.force_login(responder)
    assert client.get("/api/v1/alert-rules/").status_code == 200
    response = client.post(
        "/api/v1/alert-rules/", {"name": "R", "matchers": ['a="b"'], "component": "webhooks"}, format="json"
    )
    assert response.status_code == 403
