"""Data for the public pages, built through the services as the editor would."""

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from incidents.lifecycle.commands import (
    DeclareIncident,
    PostUpdate,
    ResolveIncident,
    ScheduleMaintenance,
    WritePostmortem,
)
from incidents.lifecycle.opening import declare_incident, schedule_maintenance
from incidents.lifecycle.postmortems import publish_postmortem, save_action_item, write_postmortem
from incidents.lifecycle.updates import post_update, resolve_incident
from incidents.models import ActionItem, Component, ComponentGroup, Metric
from incidents.roles import Role
from incidents.services.components import save_component, save_group
from incidents.services.metrics import NewSample, record_samples
from tests.conftest import make_user, read_rows, row_keys, written_once

NOW = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _frozen_now():
    """Pages show relative times and 90-day windows: pin the clock (it still ticks)."""
    with time_machine.travel(NOW, tick=True):
        yield


@pytest.fixture(autouse=True)
def _no_page_cache(settings):
    # Most tests read what they just wrote; the cache has its own tests, which turn it on.
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0


@pytest.fixture(scope="module")
def _site_rows(request, django_db_setup, django_db_blocker):
    """build_site, written once for a module marked `site_once`, whose tests all start from it;
    elsewhere it is built for each test that asks."""
    if not request.node.get_closest_marker("site_once"):
        yield None
        return
    with written_once(django_db_blocker):
        # Written at NOW exactly, so every test (its clock ticking on from NOW) comes after it.
        with time_machine.travel(NOW, tick=False):
            built = build_site(make_user("pat", Role.ADMIN))
        yield row_keys(built)


@pytest.fixture
def site(request, _site_rows, db):
    """The small page of build_site, read afresh for each test."""
    if _site_rows is None:
        return build_site(request.getfixturevalue("admin"))
    return read_rows(_site_rows)


def record_incident(admin, title: str, window: tuple[dt.datetime, dt.datetime], language: str = "en"):
    """A published incident declared at the window's start and resolved at its end."""
    started_at, resolved_at = window
    incident = declare_incident(
        DeclareIncident(title=title, language=language, body="Investigating.", started_at=started_at),
        actor=admin,
    )
    resolve_incident(
        incident,
        ResolveIncident(body={language: "Resolved."}, language=language, display_at=resolved_at),
        actor=admin,
    )
    incident.refresh_from_db()
    return incident


def build_site(admin) -> dict:
    """A small page: two groups, three components, a metric with samples, incidents of each kind."""
    with time_machine.travel(NOW - dt.timedelta(days=30)):
        core = save_group(
            ComponentGroup(slug="core", name={"en": "Core", "ru": "Ядро"}, position=1), actor=admin
        )
        delivery = save_group(
            ComponentGroup(slug="delivery", name={"en": "Delivery", "nb": "Levering"}, position=2),
            actor=admin,
        )
        api = save_component(
            Component(
                slug="public-api", group=core, name={"en": "Public API", "ru": "Публичный API"}, position=1
            ),
            actor=admin,
        )
        webhooks = save_component(
            Component(slug="webhook-delivery", group=delivery, name={"en": "Webhook delivery"}, position=1),
            actor=admin,
        )
        email = save_component(
            Component(slug="email-delivery", group=delivery, name={"en": "Email delivery"}, position=2),
            actor=admin,
        )
    delay = Metric.objects.create(
        component=webhooks,
        slug="delay",
        name={"en": "Webhook delivery delay", "ru": "Задержка доставки вебхуков"},
        unit="s",
        precision=1,
        degraded_threshold=60,
        partial_outage_threshold=300,
        major_outage_threshold=900,
    )
    now = timezone.now()
    record_samples(
        [
            NewSample(delay, 1.0 + minutes / 100, now - dt.timedelta(minutes=minutes))
            for minutes in range(180, 0, -10)
        ]
        + [NewSample(delay, 1.8, now - dt.timedelta(seconds=40))]
    )

    # A past incident on 7 March: declared at 10:00 UTC, resolved at 13:00 (three hours down).
    with time_machine.travel(NOW - dt.timedelta(days=3, hours=2)):
        past = declare_incident(
            DeclareIncident(
                title="Webhooks delayed",
                language="en",
                body="We are **investigating** delays.",
                impact="major",
                component_statuses={webhooks: "partial_outage"},
            ),
            actor=admin,
        )
    with time_machine.travel(NOW - dt.timedelta(days=3, hours=0)):
        # Written an hour after the fact: shown at 11:00, posted at 12:00.
        post_update(
            past,
            PostUpdate(
                status="identified",
                body={"en": "A queue was stuck.", "ru": "Очередь застряла."},
                language="en",
                display_at=timezone.now() - dt.timedelta(hours=1),
            ),
            actor=admin,
        )
    with time_machine.travel(NOW - dt.timedelta(days=2, hours=23)):
        resolve_incident(
            past, ResolveIncident(body={"en": "Delivery is back to normal."}, language="en"), actor=admin
        )
    write_postmortem(
        past,
        WritePostmortem(
            language="en",
            sections={
                "summary": "A stuck queue delayed webhooks.",
                "root_cause": "A lock was never released.",
            },
        ),
        actor=admin,
    )
    postmortem = past.postmortem
    publish_postmortem(postmortem, actor=admin)
    save_action_item(
        ActionItem(
            postmortem=postmortem,
            title={"en": "Alert on queue age"},
            owner_name="Platform team",
            due_date=dt.date(2025, 10, 1),
            due_precision="quarter",
        ),
        actor=admin,
    )
    save_action_item(
        ActionItem(postmortem=postmortem, title={"en": "Secret internal follow-up"}, is_public=False),
        actor=admin,
    )
    current = declare_incident(
        DeclareIncident(
            title="Сбой API",
            language="ru",
            body="Мы расследуем ошибки API.",
            impact="critical",
            component_statuses={api: "major_outage"},
        ),
        actor=admin,
    )
    upcoming = schedule_maintenance(
        ScheduleMaintenance(
            title="Database upgrade",
            language="en",
            body="We will upgrade the database.",
            impact="none",
            scheduled_for=timezone.now() + dt.timedelta(days=2),
            scheduled_until=timezone.now() + dt.timedelta(days=2, hours=2),
        ),
        actor=admin,
    )
    return {
        "groups": (core, delivery),
        "api": api,
        "webhooks": webhooks,
        "email": email,
        "delay": delay,
        "past": past,
        "current": current,
        "upcoming": upcoming,
    }
