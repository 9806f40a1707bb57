"""Resolving through the API follows the one resolve rule: a component goes back to operational
unless something holds it, and the resolving update says what."""

import pytest
from django.utils import timezone

from incidents.models import Component, Metric, StatusMode
from tests.measuring import measure

pytestmark = pytest.mark.django_db

HELD = "held by: Webhook delivery delay (95th percentile) 84.0 sec > 60.0 sec"


@pytest.fixture
def writer(client_as):
    return client_as("write_token")


@pytest.fixture
def email(make_component):
    return make_component("email", name={"en": "Email delivery"}, status_mode=StatusMode.AUTOMATIC)


@pytest.fixture
def webhooks(make_component):
    webhooks = make_component("webhooks", name={"en": "Webhook delivery"}, status_mode=StatusMode.AUTOMATIC)
    Metric.objects.create(
        component=webhooks,
        slug="delay",
        name={"en": "Webhook delivery delay"},
        unit="s",
        precision=1,
        degraded_threshold=60,
        major_outage_threshold=900,
    )
    return webhooks


@pytest.fixture
def stalled(writer, email, webhooks) -> dict:
    response = writer.post(
        "/api/v1/incidents/",
        {
            "title": "Email delivery stalled",
            "language": "en",
            "body": "Mail and webhooks are stuck.",
            "components": [
                {"component": email.public_id, "status": "major_outage"},
                {"component": webhooks.public_id, "status": "major_outage"},
            ],
        },
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def test_resolving_returns_a_free_component_and_keeps_a_probe_held_one_with_the_reason(
    writer, stalled, email, webhooks
):
    measure(webhooks.metrics.get(), [84.0] * 5, at=timezone.now())

    response = writer.post(f"/api/v1/incidents/{stalled['id']}/resolve/", {"language": "en"}, format="json")

    assert response.status_code == 200, response.content
    resolved = response.json()["updates"][0]
    assert resolved["status"] == "resolved"
    assert resolved["body"] == {"en": "This incident has been resolved."}
    changes = {change["component"]: change for change in resolved["component_changes"]}
    assert changes[email.public_id]["new_status"] == "operational"
    assert changes[email.public_id]["held_by"] == {}
    held = changes[webhooks.public_id]
    assert (held["old_status"], held["new_status"]) == ("major_outage", "degraded_performance")
    assert held["held_by"]["en"].replace("\u00a0", " ") == HELD
    statuses = dict(Component.objects.values_list("slug", "status"))
    assert statuses == {"email": "operational", "webhooks": "degraded_performance"}


def test_a_resolved_update_through_the_api_follows_the_same_rule(writer, stalled, email, webhooks):
    measure(webhooks.metrics.get(), [84.0] * 5, at=timezone.now())

    response = writer.post(
        f"/api/v1/incidents/{stalled['id']}/updates/",
        {"status": "resolved", "language": "en", "body": "Fixed."},
        format="json",
    )

    assert response.status_code == 201, response.content
    changes = {change["component"]: change for change in response.json()["component_changes"]}
    assert changes[email.public_id]["new_status"] == "operational"
    assert changes[webhooks.public_id]["held_by"]["en"].replace("\u00a0", " ") == HELD
    statuses = dict(Component.objects.values_list("slug", "status"))
    assert statuses == {"email": "operational", "webhooks": "degraded_performance"}
