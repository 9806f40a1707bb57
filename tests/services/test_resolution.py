"""The one resolve rule: resolving returns a component to operational unless something holds it,
and then says why, whichever way the incident is resolved."""

import datetime as dt

import pytest
import time_machine
from django.template.loader import render_to_string

from incidents.channels.content import render_content
from incidents.lifecycle.commands import DeclareIncident, PostUpdate, ResolveIncident, ScheduleMaintenance
from incidents.lifecycle.maintenance import start_maintenance
from incidents.lifecycle.opening import declare_incident, schedule_maintenance
from incidents.lifecycle.resolution import resolution
from incidents.lifecycle.updates import post_update, resolve_incident
from incidents.models import (
    AlertSource,
    AlertState,
    ComponentChange,
    ComponentStatus,
    IncidentStatus,
    IntakeAlert,
    StatusMode,
)
from tests.measuring import measure
from tests.regions import make_regions, measure_from_regions, probe_in_regions

HELD = "held by: Webhook delivery delay (95th percentile) 84.0 sec > 60.0 sec"


def plain(text: str) -> str:
    return text.replace("\u00a0", " ")


@pytest.fixture
def webhooks(component, latency_metric):
    component.status_mode = StatusMode.AUTOMATIC
    component.save(update_fields=["status_mode"])
    return component


@pytest.fixture
def email(make_component, group):
    return make_component(
        "email", group=group, name={"en": "Email delivery"}, status_mode=StatusMode.AUTOMATIC
    )


@pytest.fixture
def outage(responder, webhooks, email, at):
    with time_machine.travel(at, tick=False):
        return declare_incident(
            DeclareIncident(
                title="Email delivery stalled",
                language="en",
                body="Mail and webhooks are stuck.",
                component_statuses={webhooks: "major_outage", email: "major_outage"},
            ),
            actor=responder,
        )


def statuses(*components) -> list[str]:
    for component in components:
        component.refresh_from_db()
    return [component.status for component in components]


def test_resolving_returns_a_free_component_to_operational_and_keeps_a_probe_held_one_saying_why(
    outage, responder, webhooks, email, latency_metric, at
):
    later = at + dt.timedelta(minutes=20)
    with time_machine.travel(later, tick=False):
        measure(latency_metric, [84.0] * 5, at=later)
        update = resolve_incident(
            outage, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder
        )

    assert statuses(email, webhooks) == ["operational", "degraded_performance"]
    changes = {c.component_id: c for c in update.component_changes.all()}
    assert (changes[email.pk].old_status, changes[email.pk].new_status) == ("major_outage", "operational")
    assert changes[email.pk].held_by == {}
    held = changes[webhooks.pk]
    assert (held.old_status, held.new_status) == ("major_outage", "degraded_performance")
    assert plain(held.held_by["en"]) == HELD
    assert held.held_by.keys() >= {"en", "ru", "es", "nb"}


def test_a_resolved_update_follows_the_same_rule_as_resolve(
    outage, responder, webhooks, email, latency_metric, at
):
    later = at + dt.timedelta(minutes=20)
    with time_machine.travel(later, tick=False):
        measure(latency_metric, [84.0] * 5, at=later)
        update = post_update(
            outage,
            PostUpdate(status=IncidentStatus.RESOLVED, body={"en": "Fixed."}, language="en"),
            actor=responder,
        )

    assert statuses(email, webhooks) == ["operational", "degraded_performance"]
    assert plain(update.component_changes.get(component=webhooks).held_by["en"]) == HELD


def test_a_metric_that_went_silent_holds_nothing(outage, responder, webhooks, latency_metric, at):
    with time_machine.travel(at + dt.timedelta(minutes=5), tick=False):
        measure(latency_metric, [84.0] * 5, at=at + dt.timedelta(minutes=5))
    with time_machine.travel(at + dt.timedelta(hours=2), tick=False):
        resolve_incident(outage, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)
    assert statuses(webhooks) == ["operational"]


def test_a_hand_set_component_goes_back_to_operational_whatever_its_metrics_say(
    outage, responder, webhooks, latency_metric, at
):
    webhooks.status_mode = StatusMode.MANUAL
    webhooks.save(update_fields=["status_mode"])
    with time_machine.travel(at + dt.timedelta(minutes=20), tick=False):
        measure(latency_metric, [84.0] * 5, at=at + dt.timedelta(minutes=20))
        resolve_incident(outage, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)
    assert statuses(webhooks) == ["operational"]


def test_a_firing_alert_holds_its_component(outage, responder, email, at):
    IntakeAlert.objects.create(
        source=AlertSource.ALERTMANAGER,
        fingerprint="mail-queue",
        name="MailQueueBacklog",
        state=AlertState.FIRING,
        starts_at=at,
        component=email,
        status=ComponentStatus.PARTIAL_OUTAGE,
    )
    with time_machine.travel(at + dt.timedelta(minutes=20), tick=False):
        update = resolve_incident(
            outage, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder
        )
    assert statuses(email) == ["partial_outage"]
    assert update.component_changes.get(component=email).held_by["en"] == "held by: alert “MailQueueBacklog”"


def test_another_open_incident_holds_a_component_in_the_status_it_gave(outage, responder, email, at):
    with time_machine.travel(at + dt.timedelta(minutes=5), tick=False):
        declare_incident(
            DeclareIncident(
                title="Bounces from one provider",
                language="en",
                body="Some mail bounces.",
                component_statuses={email: "partial_outage"},
            ),
            actor=responder,
        )
    with time_machine.travel(at + dt.timedelta(minutes=20), tick=False):
        update = resolve_incident(
            outage, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder
        )
    assert statuses(email) == ["partial_outage"]
    held = update.component_changes.get(component=email)
    assert held.held_by["en"] == "held by: incident “Bounces from one provider”"


def test_maintenance_in_progress_holds_a_component(outage, responder, email, at):
    with time_machine.travel(at + dt.timedelta(minutes=5), tick=False):
        window = schedule_maintenance(
            ScheduleMaintenance(
                title="Mail relay upgrade",
                language="en",
                body="Upgrading the relay.",
                component_statuses=dict.fromkeys([email], ComponentStatus.UNDER_MAINTENANCE),
                scheduled_for=at + dt.timedelta(minutes=6),
                scheduled_until=at + dt.timedelta(hours=2),
            ),
            actor=responder,
        )
    with time_machine.travel(at + dt.timedelta(minutes=6), tick=False):
        start_maintenance(window)
    with time_machine.travel(at + dt.timedelta(minutes=20), tick=False):
        update = resolve_incident(
            outage, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder
        )
    assert statuses(email) == ["under_maintenance"]
    assert (
        update.component_changes.get(component=email).held_by["en"]
        == "held by: maintenance “Mail relay upgrade”"
    )


def test_resolving_without_a_text_posts_the_default_message(outage, responder, at):
    with time_machine.travel(at + dt.timedelta(minutes=20), tick=False):
        update = resolve_incident(outage, ResolveIncident(body={}, language="en"), actor=responder)
    assert update.body == {"en": "This incident has been resolved."}


def test_a_component_already_operational_gets_no_change_on_the_resolving_update(
    outage, responder, webhooks, email, at
):
    with time_machine.travel(at + dt.timedelta(minutes=10), tick=False):
        post_update(
            outage,
            PostUpdate(
                status="monitoring",
                body={"en": "Mail flows again."},
                language="en",
                component_statuses={email: "operational"},
            ),
            actor=responder,
        )
    with time_machine.travel(at + dt.timedelta(minutes=20), tick=False):
        update = resolve_incident(
            outage, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder
        )
    assert list(update.component_changes.values_list("component__slug", "old_status", "new_status")) == [
        ("webhooks", "major_outage", "operational")
    ]


def test_the_resolve_screen_reads_the_same_plan_before_resolving(outage, webhooks, email, latency_metric, at):
    later = at + dt.timedelta(minutes=20)
    with time_machine.travel(later, tick=False):
        measure(latency_metric, [84.0] * 5, at=later)
        plan = {r.component.slug: (r.status, plain(r.reasons("en"))) for r in resolution(outage)}
    assert plan == {"email": ("operational", ""), "webhooks": ("degraded_performance", HELD)}
    assert ComponentChange.objects.filter(new_status="operational").count() == 0


def test_the_mail_of_the_resolving_update_says_what_holds_a_component(
    outage, responder, webhooks, latency_metric, at
):
    later = at + dt.timedelta(minutes=20)
    with time_machine.travel(later, tick=False):
        measure(latency_metric, [84.0] * 5, at=later)
        update = resolve_incident(
            outage, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder
        )
    content = render_content(update, "en")
    text = render_to_string("emails/incident_update/body.txt", {"content": content})
    assert f"- Webhook delivery: Degraded performance ({HELD})" in plain(text)
    assert "- Email delivery: Operational\n" in text


def test_a_metric_held_by_a_quorum_of_regions_says_how_many_agree(
    outage, responder, webhooks, latency_metric, at
):
    probe_in_regions(latency_metric, make_regions().values())
    later = at + dt.timedelta(minutes=20)
    with time_machine.travel(later, tick=False):
        measure_from_regions(latency_metric, {"eu-north": 84.0, "us-east": 84.0, "ap-south": 20.0})
        update = resolve_incident(
            outage, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder
        )

    held = update.component_changes.get(component=webhooks).held_by
    assert plain(held["en"]) == HELD.replace("held by: ", "held by: 2 of 3 regions, ")
    assert "2 из 3 регионов" in held["ru"] and "2 de 3 regiones" in held["es"]
