"""`component_update` webhooks: a component's status changed (by probes, by hand, by maintenance
or by an incident update); each webhook subscriber whose components include it hears once."""

import datetime as dt

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from incidents.channels import outbox
from incidents.lifecycle.commands import PostUpdate, ResolveIncident, ScheduleMaintenance
from incidents.lifecycle.maintenance import advance_maintenance
from incidents.lifecycle.opening import schedule_maintenance
from incidents.lifecycle.updates import post_update, resolve_incident
from incidents.models import (
    ComponentStatus,
    ComponentStatusChange,
    Delivery,
    DeliveryState,
    Metric,
    Outcome,
    StatusMode,
)
from incidents.services.components import set_component_status
from incidents.services.health import evaluate_metrics
from incidents.services.metrics import NewSample, record_samples

from .conftest import parsed_json
from .test_webhooks import signature_is_valid

pytestmark = pytest.mark.django_db


def later(minutes: float):
    return time_machine.travel(timezone.now() + dt.timedelta(minutes=minutes), tick=True)


@pytest.fixture
def hooks(webhook_receiver, make_webhook_subscriber, make_subscriber, make_component, component):
    """Webhooks for everything, for `component`, for another component; and an email reader."""
    other = make_component("dashboard")
    base = webhook_receiver.url
    return {
        "all": make_webhook_subscriber(f"{base}/all"),
        "this": make_webhook_subscriber(f"{base}/this", components=[component]),
        "other": make_webhook_subscriber(f"{base}/other", components=[other]),
        "email": make_subscriber("reader@example.com"),
    }


def sent_to(receiver) -> dict[str, list[dict]]:
    """Requests by endpoint (the last path segment)."""
    by_path: dict[str, list[dict]] = {}
    for request in receiver.requests:
        by_path.setdefault(request["path"].rsplit("/", 1)[-1], []).append(request)
    return by_path


def component_updates(receiver) -> list[dict]:
    return [p for p in map(parsed_json, receiver.requests) if "component_update" in p]


def set_status_through_the_api(component, status, responder, capture):
    api = APIClient()
    api.force_login(responder)
    with capture(execute=True):
        response = api.post(
            f"/api/v1/components/{component.public_id}/status/", {"status": status}, format="json"
        )
    assert response.status_code == 200
    return response


def test_a_manual_change_sends_one_signed_component_update_to_each_matching_webhook(
    hooks, webhook_receiver, component, responder, django_capture_on_commit_callbacks
):
    set_status_through_the_api(component, "major_outage", responder, django_capture_on_commit_callbacks)

    outbox.deliver_due(seconds=30)

    by_path = sent_to(webhook_receiver)
    assert sorted(by_path) == ["all", "this"]  # not the other component's subscriber
    change = ComponentStatusChange.objects.get()
    for name in ("all", "this"):
        [request] = by_path[name]
        subscriber = hooks[name]
        assert signature_is_valid(subscriber, request)
        event_id = f"{change.public_id}.{subscriber.public_id}"
        assert request["headers"]["X-Status-Event-Id"] == event_id
        payload = parsed_json(request)
        assert set(payload) == {"meta", "page", "component_update", "component"}
        assert payload["meta"]["event_id"] == event_id
        assert payload["component_update"] == {
            "id": change.public_id,
            "component_id": component.public_id,
            "old_status": "operational",
            "new_status": "major_outage",
            "created_at": payload["component_update"]["created_at"],
        }
        assert payload["component"]["id"] == component.public_id
        assert payload["component"]["name"] == "Webhook delivery"
        assert payload["component"]["status"] == "major_outage"
        assert payload["page"]["status_indicator"] == "critical"
    # Email subscribers hear about incidents, not bare component changes.
    assert not Delivery.objects.filter(subscriber=hooks["email"]).exists()
    assert mail.outbox == []


def test_a_component_update_answered_with_500_is_retried_with_the_same_event_id(
    webhook_receiver, make_webhook_subscriber, component, responder
):
    subscriber = make_webhook_subscriber(webhook_receiver.url)
    set_component_status(component, status="partial_outage", actor=responder)
    webhook_receiver.answers = [500]

    outbox.deliver_due(seconds=30)

    delivery = Delivery.objects.get()
    assert (delivery.state, delivery.attempts) == (DeliveryState.PENDING, 1)
    with later(minutes=5):
        outbox.deliver_due(seconds=30)
        first, second = webhook_receiver.requests
        assert signature_is_valid(subscriber, second)
    assert first["headers"]["X-Status-Event-Id"] == second["headers"]["X-Status-Event-Id"]
    assert first["headers"]["X-Status-Event-Id"] == delivery.idempotency_key
    assert parsed_json(first)["component_update"] == parsed_json(second)["component_update"]
    delivery.refresh_from_db()
    assert delivery.state == DeliveryState.SENT


def test_setting_the_status_a_component_already_has_sends_nothing(
    hooks, webhook_receiver, component, responder, django_capture_on_commit_callbacks
):
    set_status_through_the_api(component, "operational", responder, django_capture_on_commit_callbacks)

    outbox.deliver_due(seconds=30)

    assert not ComponentStatusChange.objects.exists()
    assert not Delivery.objects.exists()
    assert webhook_receiver.requests == []


def feed(metric, *values):
    """Samples one evaluation at a time, as probe runs would."""
    for value in values:
        at = timezone.now()
        if metric.latest_at and at <= metric.latest_at:
            at = metric.latest_at + dt.timedelta(milliseconds=1)
        entry = NewSample(metric, value, at, Outcome.OK)
        record_samples([entry])
        evaluate_metrics({metric.pk: [(entry.at, entry.value)]})


@pytest.fixture
def probed_component(component, settings):
    settings.PROBE_RECOVERY_EVALUATIONS = 3
    component.status_mode = StatusMode.AUTOMATIC
    component.save()
    metric = Metric.objects.create(
        component=component,
        slug="delay",
        name={"en": "Delay"},
        unit="ms",
        window=1,
        expected_interval=10,
        degraded_threshold=100,
        partial_outage_threshold=500,
        major_outage_threshold=1000,
    )
    return metric


def test_probe_transitions_send_component_updates_and_flapping_inside_the_hysteresis_sends_none(
    hooks, webhook_receiver, probed_component
):
    feed(probed_component, 700)  # breach: partial outage at once
    feed(probed_component, 10, 700, 10, 10, 700)  # flapping: recovery never reaches 3 in a row
    feed(probed_component, 10, 10, 10)  # recovered

    outbox.deliver_due(seconds=30)

    by_path = sent_to(webhook_receiver)
    assert sorted(by_path) == ["all", "this"]
    for name in ("all", "this"):
        transitions = [
            (p["component_update"]["old_status"], p["component_update"]["new_status"])
            for p in map(parsed_json, by_path[name])
        ]
        assert transitions == [("operational", "partial_outage"), ("partial_outage", "operational")]
        assert all(signature_is_valid(hooks[name], r) for r in by_path[name])
    # The draft incident the outage opened is not public: no incident payload.
    assert all("incident" not in parsed_json(r) for r in webhook_receiver.requests)
    assert not Delivery.objects.filter(subscriber=hooks["email"]).exists()


def test_an_incident_update_sends_its_incident_payload_once_and_a_component_update(
    hooks, webhook_receiver, smtp_sink, declare, component, responder
):
    incident = declare()  # operational → degraded_performance
    resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)

    outbox.deliver_due(seconds=30)

    for name in ("all", "this"):
        payloads = [parsed_json(r) for r in sent_to(webhook_receiver)[name]]
        incident_events = [p["meta"]["event_id"] for p in payloads if "incident" in p]
        expected = [f"{u.public_id}.{hooks[name].public_id}" for u in incident.updates.order_by("id")]
        assert incident_events == expected  # one incident payload per update, no duplicate
        transitions = [
            (p["component_update"]["old_status"], p["component_update"]["new_status"])
            for p in payloads
            if "component_update" in p
        ]
        assert transitions == [
            ("operational", "degraded_performance"),
            ("degraded_performance", "operational"),
        ]
    assert "other" not in sent_to(webhook_receiver)
    # The email reader gets the two incident mails, nothing about the components on their own.
    assert sorted(m["Subject"].split(":")[0] for m in smtp_sink.messages) == [
        "[Acme Status] Incident — Investigating",
        "[Acme Status] Incident — Resolved",
    ]


def test_an_update_posted_without_notifications_sends_no_component_update_either(
    hooks, webhook_receiver, declare, responder, component
):
    incident = declare(component_statuses={})
    Delivery.objects.all().delete()

    post_update(
        incident,
        PostUpdate(
            status="identified",
            body={"en": "Quiet."},
            language="en",
            component_statuses={component: "major_outage"},
            notify=False,
        ),
        actor=responder,
    )

    assert ComponentStatusChange.objects.get().new_status == "major_outage"
    assert not Delivery.objects.exists()


def test_maintenance_start_and_end_send_component_updates(hooks, webhook_receiver, component, responder):
    start = timezone.now() + dt.timedelta(hours=1)
    schedule_maintenance(
        ScheduleMaintenance(
            title="Database upgrade",
            language="en",
            body="Planned.",
            component_statuses=dict.fromkeys([component], ComponentStatus.UNDER_MAINTENANCE),
            scheduled_for=start,
            scheduled_until=start + dt.timedelta(hours=1),
        ),
        actor=responder,
    )
    with later(minutes=61):
        advance_maintenance()
    with later(minutes=121):
        advance_maintenance()
        outbox.deliver_due(seconds=30)

    transitions = [
        (p["component_update"]["old_status"], p["component_update"]["new_status"])
        for p in map(parsed_json, sent_to(webhook_receiver)["this"])
        if "component_update" in p
    ]
    assert transitions == [("operational", "under_maintenance"), ("under_maintenance", "operational")]


def test_a_failed_component_update_is_listed_for_staff_with_its_reason_for_admins(
    client, viewer, admin, make_webhook_subscriber, component
):
    make_webhook_subscriber("http://169.254.169.254/")
    set_component_status(component, status="major_outage", actor=None)
    outbox.deliver_due(seconds=30)

    pages = {}
    for person in (viewer, admin):
        client.force_login(person)
        pages[person.username] = client.get("/editor/deliveries/")

    for response in pages.values():
        assert response.status_code == 200
        assert "Component Webhook delivery: Operational → Major outage" in response.content.decode()
    # The reason names the address, which viewers may not see.
    assert b"Cloud metadata addresses are never allowed" in pages[admin.username].content
    assert b"Cloud metadata addresses are never allowed" not in pages[viewer.username].content
    assert b"169.254.169.254" not in pages[viewer.username].content
