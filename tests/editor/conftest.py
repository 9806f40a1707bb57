"""Fixtures of the editor tests: logged-in clients per persona and a small incident world."""

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from incidents.lifecycle.commands import DeclareIncident, ResolveIncident, WritePostmortem
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.postmortems import save_action_item, write_postmortem
from incidents.lifecycle.updates import resolve_incident
from incidents.models import ActionItem, Component, Metric, UpdateTemplate

PASSWORD = "correct horse battery"


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def clients(admin, responder, viewer, outsider):
    """A client per persona; "anonymous" is not logged in."""
    return {
        "anonymous": Client(),
        "outsider": logged_in(outsider),
        "viewer": logged_in(viewer),
        "responder": logged_in(responder),
        "admin": logged_in(admin),
    }


@pytest.fixture
def api(make_component):
    return make_component("public-api", name={"en": "Public API", "nb": "Offentlig API"})


@pytest.fixture
def webhooks(make_component):
    return make_component("webhook-delivery", name={"en": "Webhook delivery"})


@pytest.fixture
def incident(api, responder):
    return declare_incident(
        DeclareIncident(
            title="Elevated API errors",
            language="en",
            body="We are investigating.",
            impact="major",
            component_statuses={api: "partial_outage"},
        ),
        actor=responder,
    )


@pytest.fixture
def draft(api, responder):
    return declare_incident(
        DeclareIncident(
            title="Probe saw timeouts",
            language="en",
            body="Opened by a probe.",
            component_statuses={api: "degraded_performance"},
            publish=False,
        ),
        actor=responder,
    )


@pytest.fixture
def postmortem(incident, responder):
    return write_postmortem(
        incident,
        WritePostmortem(
            language="en", sections={"summary": "The API failed.", "root_cause": "A bad deploy."}
        ),
        actor=responder,
    )


@pytest.fixture
def action_item(postmortem, responder):
    return save_action_item(
        ActionItem(
            postmortem=postmortem, title={"en": "Add a canary"}, owner=responder, due_date=dt.date(2026, 1, 1)
        ),
        actor=responder,
    )


@pytest.fixture
def metric(api):
    return Metric.objects.create(
        component=api,
        slug="latency",
        name={"en": "Latency"},
        degraded_threshold=500,
        major_outage_threshold=2000,
    )


@pytest.fixture
def world(api, webhooks, responder, metric, group):
    """The objects the permission tests' ACTIONS act on, built for each test that asks."""
    return build_world(component=api, metric=metric, group=group, responder=responder)


def build_world(*, component, metric, group, responder) -> dict:
    """The objects the ACTIONS act on (also used by tests/security/test_permission_matrix.py)."""
    incident = declare_incident(
        DeclareIncident(
            title="API errors",
            language="en",
            body="Investigating.",
            component_statuses={component: "major_outage"},
        ),
        actor=responder,
    )
    draft = declare_incident(
        DeclareIncident(title="Draft", language="en", body="Draft.", publish=False), actor=responder
    )
    resolved = declare_incident(
        DeclareIncident(title="Old errors", language="en", body="Investigating."), actor=responder
    )
    resolve_incident(resolved, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)
    postmortem = write_postmortem(
        incident, WritePostmortem(language="en", sections={"summary": "Broke."}), actor=responder
    )
    item = save_action_item(
        ActionItem(postmortem=postmortem, title={"en": "Fix"}, owner_name="Team"), actor=responder
    )
    template = UpdateTemplate.objects.create(name="Investigating", language="en", body={"en": "Looking."})
    return {
        "incident": incident,
        "draft": draft,
        "resolved": resolved,
        "update": incident.updates.first(),
        "postmortem": postmortem,
        "item": item,
        "template": template,
        "component": component,
        "metric": metric,
        "group": group,
        "newcomer": get_user_model().objects.create_user(username="newcomer", password="x"),
    }


__all__ = ["Component", "PASSWORD"]
