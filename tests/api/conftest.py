"""Fixtures of the API tests: clients for each persona, tokens, and a small page of data."""

import datetime as dt

import pytest
from rest_framework.test import APIClient

from incidents.lifecycle.commands import DeclareIncident, PostUpdate, ResolveIncident, ScheduleMaintenance
from incidents.lifecycle.opening import declare_incident, schedule_maintenance
from incidents.lifecycle.updates import post_update, resolve_incident
from incidents.models import Component, ComponentGroup, Metric, Probe, Subscriber, TokenScope
from incidents.roles import Role
from incidents.services.api_tokens import issue_token
from incidents.services.metrics import record_sample
from incidents.services.probes import save_probe
from incidents.services.subscriptions import confirm_subscription, subscribe
from tests.conftest import make_user, read_rows, row_keys, written_once


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def token_for(db):
    """The secret of a new token of `user` with `scope`."""

    def make(user, scope=TokenScope.READ_WRITE):
        _token, secret = issue_token(user, name="test", scope=scope, actor=user)
        return secret

    return make


@pytest.fixture
def client_as(admin, responder, viewer, outsider, token_for):
    """A client for a persona: anonymous, outsider, viewer, responder, admin, read_token, write_token."""

    def make(persona: str) -> APIClient:
        client = APIClient()
        users = {"outsider": outsider, "viewer": viewer, "responder": responder, "admin": admin}
        if persona in users:
            client.force_login(users[persona])
        elif persona == "read_token":
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_for(admin, TokenScope.READ)}")
        elif persona == "write_token":
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_for(admin, TokenScope.READ_WRITE)}")
        return client

    return make


@pytest.fixture(scope="module")
def _page_rows(request, django_db_setup, django_db_blocker):
    """build_page, written once for the module: it goes through the services, and most API and
    hostile-input tests ask for it.

    Later tests of the module see its rows whether they ask for the page or not: a module with
    tests that need a database without it is marked `page_per_test`."""
    if request.node.get_closest_marker("page_per_test"):
        yield None
        return
    with written_once(django_db_blocker):
        built = build_page(make_user("pat", Role.ADMIN))
        yield row_keys(built)


@pytest.fixture
def page(request, _page_rows, db):
    """build_page's rows, read afresh for each test: a test may change the objects it is given."""
    if _page_rows is None:
        return build_page(request.getfixturevalue("admin"))
    return read_rows(_page_rows)


@pytest.fixture
def probes(page, admin):
    return build_probes(page, admin)


@pytest.fixture
def subscriber(page):
    return build_subscriber(page)


def build_page(admin) -> dict:
    """A page like the documented Statuspage example: a group of two components, an open
    incident with two updates, a resolved one, scheduled and running maintenance, a draft."""
    core = ComponentGroup.objects.create(slug="core", name={"en": "Core", "ru": "Ядро"}, position=1)
    rest = Component.objects.create(
        slug="rest-api",
        group=core,
        name={"en": "REST API"},
        description={"en": "Public REST API"},
        position=1,
        start_date=dt.date(2024, 1, 10),
    )
    webhooks = Component.objects.create(
        slug="webhooks",
        group=core,
        name={"en": "Webhook delivery", "ru": "Доставка вебхуков"},
        description={"en": "Delivery delay p95 measured every minute"},
        position=2,
        start_date=dt.date(2024, 1, 10),
    )
    delay = Metric.objects.create(
        component=webhooks, slug="delay", name={"en": "Delivery delay"}, unit="s", degraded_threshold=60
    )
    for value in (10, 20, 30, 400):
        record_sample(delay, value=value)
    now = dt.datetime.now(dt.UTC)
    resolved = declare_incident(
        DeclareIncident(
            title="Slow API",
            language="en",
            body="Slow.",
            component_statuses={rest: "degraded_performance"},
            started_at=now - dt.timedelta(days=2),
        ),
        actor=admin,
    )
    resolve_incident(resolved, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=admin)
    incident = declare_incident(
        DeclareIncident(
            title="Delayed webhook deliveries",
            language="en",
            body="Webhook deliveries are delayed. We are investigating.",
            component_statuses={webhooks: "degraded_performance"},
            started_at=now - dt.timedelta(minutes=20),
        ),
        actor=admin,
    )
    post_update(
        incident,
        PostUpdate(
            status="identified",
            body={"en": "A queue consumer is lagging.", "ru": "Обработчик очереди отстаёт."},
            language="en",
        ),
        actor=admin,
    )
    upcoming = schedule_maintenance(
        ScheduleMaintenance(
            title="Database failover test",
            language="en",
            body="Planned failover.",
            scheduled_for=now + dt.timedelta(days=3),
            scheduled_until=now + dt.timedelta(days=3, hours=1),
        ),
        actor=admin,
    )
    draft = declare_incident(
        DeclareIncident(title="Probe breach", language="en", body="Draft.", publish=False), actor=admin
    )
    return {
        "group": core,
        "rest": rest,
        "webhooks": webhooks,
        "metric": delay,
        "incident": incident,
        "resolved": resolved,
        "upcoming": upcoming,
        "draft": draft,
    }


def build_probes(page, admin) -> dict:
    """An HTTP probe, a push probe and a webhook probe on metrics of the page, a spare metric."""
    rest, webhooks = page["rest"], page["webhooks"]

    def metric(component, slug):
        return Metric.objects.create(component=component, slug=slug, name={"en": slug}, unit="ms")

    http = save_probe(
        Probe(
            name="API health",
            kind="http",
            metric=metric(rest, "health-latency"),
            url="http://93.184.216.34/health",
            interval=60,
            timeout=5,
        ),
        actor=admin,
    )
    push = save_probe(
        Probe(name="Queue lag", kind="push", metric=metric(rest, "lag"), url="", interval=60), actor=admin
    )
    webhook = save_probe(
        Probe(
            name="Webhook round-trip",
            kind="webhook",
            metric=metric(webhooks, "round-trip"),
            url="http://93.184.216.34/trigger",
            interval=60,
            timeout=5,
        ),
        actor=admin,
    )
    return {"http": http, "push": push, "webhook": webhook, "spare_metric": metric(rest, "errors")}


def build_subscriber(page) -> Subscriber:
    """A confirmed email subscriber to the REST API component."""
    created = subscribe(email="ops@example.com", language="en", components=[page["rest"]]).subscriber
    return confirm_subscription(created)
