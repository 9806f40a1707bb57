"""A resolved incident is resolved once and reopens only when someone reopens it."""

import pytest
from django.core import mail
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.test import APIClient

from incidents.channels import outbox
from incidents.lifecycle.commands import DeclareIncident, PostUpdate, ReopenIncident, ResolveIncident
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import post_update, reopen_incident, resolve_incident
from incidents.models import AuditEvent, Delivery, IncidentUpdate
from incidents.services.subscriptions import confirm_subscription, subscribe


@pytest.fixture
def incident(component, responder):
    return declare_incident(
        DeclareIncident(
            title="Checkout errors",
            language="en",
            body="Investigating.",
            component_statuses={component: "partial_outage"},
        ),
        actor=responder,
    )


@pytest.fixture
def resolved(incident, responder, component):
    subscriber = subscribe(email="ops@example.com", language="en", send_mail=False).subscriber
    confirm_subscription(subscriber)
    resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)
    outbox.deliver_due(seconds=5)
    incident.refresh_from_db()
    assert incident.status == "resolved" and len(mail.outbox) == 1
    return incident


def traces(incident) -> tuple:
    """What a refused call must leave unchanged: updates, deliveries, mails, audit, version."""
    outbox.deliver_due(seconds=5)
    incident.refresh_from_db()
    return (
        IncidentUpdate.objects.filter(incident=incident).count(),
        Delivery.objects.count(),
        len(mail.outbox),
        AuditEvent.objects.count(),
        incident.version,
        incident.status,
        incident.resolved_at,
    )


def api_client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def editor_client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_resolving_a_resolved_incident_is_refused_without_a_second_update_or_mail(resolved, responder):
    before = traces(resolved)
    with pytest.raises(ValidationError) as error:
        resolve_incident(
            resolved, ResolveIncident(body={"en": "Fixed again."}, language="en"), actor=responder
        )
    assert "already resolved" in error.value.message_dict["status"][0]
    assert traces(resolved) == before


def test_an_investigating_update_does_not_reopen_a_resolved_incident(resolved, responder, component):
    before = traces(resolved)
    with pytest.raises(ValidationError) as error:
        post_update(
            resolved, PostUpdate(status="investigating", body={"en": "Back?"}, language="en"), actor=responder
        )
    assert "reopen" in error.value.message_dict["status"][0]
    assert traces(resolved) == before
    component.refresh_from_db()
    assert component.status == "operational"


def test_reopen_is_the_way_back_and_is_refused_on_an_open_incident(resolved, responder):
    reopen_incident(resolved, ReopenIncident(body={"en": "It is back."}, language="en"), actor=responder)
    assert resolved.status == "investigating" and resolved.resolved_at is None
    with pytest.raises(ValidationError):
        reopen_incident(resolved, ReopenIncident(body={"en": "Again?"}, language="en"), actor=responder)
    assert resolved.updates.filter(status="investigating").count() == 2  # the first one and the reopen


def test_an_open_incident_may_go_back_from_monitoring_to_investigating(incident, responder):
    post_update(
        incident,
        PostUpdate(status="monitoring", body={"en": "Fix deployed."}, language="en"),
        actor=responder,
    )
    post_update(
        incident,
        PostUpdate(status="investigating", body={"en": "Not fixed."}, language="en"),
        actor=responder,
    )
    assert incident.status == "investigating"


def test_a_backdated_entry_fills_in_the_timeline_of_a_resolved_incident(resolved, responder, incident):
    first = incident.updates.order_by("display_at").first()
    post_update(
        resolved,
        PostUpdate(
            status="identified",
            body={"en": "Found the cause (added later)."},
            language="en",
            display_at=first.display_at,
        ),
        actor=responder,
    )
    assert resolved.status == "resolved"


def test_the_api_answers_409_to_a_second_resolve_and_sends_nothing(resolved, responder):
    before = traces(resolved)
    response = api_client(responder).post(
        f"/api/v1/incidents/{resolved.public_id}/resolve/",
        {"language": "en", "body": "Fixed again."},
        format="json",
    )
    assert response.status_code == 409
    assert "already resolved" in response.json()["status"][0]
    assert traces(resolved) == before


def test_the_api_answers_409_to_an_investigating_update_on_a_resolved_incident(resolved, responder):
    before = traces(resolved)
    response = api_client(responder).post(
        f"/api/v1/incidents/{resolved.public_id}/updates/",
        {"status": "investigating", "language": "en", "body": "Back?"},
        format="json",
    )
    assert response.status_code == 409
    assert "reopen" in response.json()["status"][0]
    assert traces(resolved) == before


def test_the_editor_tells_the_responder_it_is_already_resolved(resolved, responder):
    before = traces(resolved)
    response = editor_client(responder).post(
        f"/editor/incidents/{resolved.pk}/resolve/",
        {"resolve-language": "en", "resolve-body": "Fixed again.", "resolve-version": resolved.version},
        follow=True,
    )
    assert response.redirect_chain == [(f"/editor/incidents/{resolved.pk}/", 302)]
    assert "This incident is already resolved." in response.content.decode()
    assert traces(resolved) == before


def test_the_editor_refuses_an_investigating_update_on_a_resolved_incident(resolved, responder):
    before = traces(resolved)
    response = editor_client(responder).post(
        f"/editor/incidents/{resolved.pk}/updates/",
        {"status": "investigating", "language": "en", "body": "Back?"},
        follow=True,
    )
    assert response.redirect_chain == [(f"/editor/incidents/{resolved.pk}/", 302)]
    assert "reopen it first" in response.content.decode()
    assert traces(resolved) == before
