import datetime as dt

import pytest
import time_machine

from incidents.lifecycle.commands import DeclareIncident, EditIncident, PostUpdate, ResolveIncident
from incidents.lifecycle.edits import edit_incident
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import post_update, resolve_incident
from incidents.models import AuditEvent, ComponentChange, Incident, StatusPeriod
from incidents.validation.concurrency import ConcurrentEdit


@pytest.fixture
def declared(responder, component, at):
    with time_machine.travel(at, tick=False):
        return declare_incident(
            DeclareIncident(
                title="Delayed webhook deliveries",
                language="en",
                body="Webhooks are late. We are investigating.",
                impact="minor",
                component_statuses={component: "degraded_performance"},
            ),
            actor=responder,
        )


def test_declaring_sets_component_statuses_and_writes_the_first_update(declared, component):
    component.refresh_from_db()
    assert component.status == "degraded_performance"
    update = declared.updates.get()
    assert update.status == "investigating" and update.body == {
        "en": "Webhooks are late. We are investigating."
    }
    change = ComponentChange.objects.get(update=update)
    assert (change.old_status, change.new_status) == ("operational", "degraded_performance")
    assert list(declared.components.all()) == [component]
    assert declared.slug == "2026-03-04-delayed-webhook-deliveries"


def test_timeline_is_ordered_by_displayed_time_with_backdated_updates(declared, responder, at):
    with time_machine.travel(at + dt.timedelta(hours=2), tick=False):
        late = post_update(
            declared,
            PostUpdate(status="identified", body={"en": "Found it."}, language="en"),
            actor=responder,
        )
        backfilled = post_update(
            declared,
            PostUpdate(
                status="investigating",
                body={"en": "00:18 — engineers localised the problem"},
                language="en",
                display_at=at + dt.timedelta(minutes=18),
            ),
            actor=responder,
        )
    timeline = list(declared.updates.timeline())
    assert timeline[0] == late and timeline[1] == backfilled
    assert backfilled.is_backdated and not late.is_backdated
    declared.refresh_from_db()
    # The newest update by displayed time decides the incident's status, not the last one posted.
    assert declared.status == "identified"


def test_resolving_returns_components_to_operational(declared, responder, component):
    resolve_incident(declared, ResolveIncident(body={"en": "Recovered."}, language="en"), actor=responder)
    declared.refresh_from_db()
    component.refresh_from_db()
    assert declared.status == "resolved" and declared.resolved_at is not None
    assert component.status == "operational"
    periods = list(StatusPeriod.objects.filter(component=component).order_by("started_at"))
    assert [p.status for p in periods] == ["degraded_performance", "operational"]
    assert periods[0].ended_at == periods[1].started_at and periods[1].ended_at is None


def test_resolving_keeps_a_component_that_another_open_incident_holds(declared, responder, component):
    other = declare_incident(
        DeclareIncident(
            title="Partial outage", language="en", body="x", component_statuses={component: "partial_outage"}
        ),
        actor=responder,
    )
    resolve_incident(declared, ResolveIncident(body={"en": "Done."}, language="en"), actor=responder)
    component.refresh_from_db()
    assert component.status == "partial_outage"
    assert Incident.objects.open().get() == other


def test_a_stale_edit_is_refused_and_changes_nothing(declared, responder):
    version = declared.version
    edit_incident(
        declared,
        EditIncident(expected_version=version, title={"en": "Webhooks delayed 20 min"}),
        actor=responder,
    )
    with pytest.raises(ConcurrentEdit) as conflict:
        edit_incident(
            declared, EditIncident(expected_version=version, title={"en": "Something else"}), actor=responder
        )
    assert conflict.value.current.title == {"en": "Webhooks delayed 20 min"}
    declared.refresh_from_db()
    assert declared.title == {"en": "Webhooks delayed 20 min"}


def test_bad_input_is_a_validation_error_and_saves_nothing(db, responder):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as error:
        declare_incident(DeclareIncident(title="Broken", language="de", body="x"), actor=responder)
    assert "de" in str(error.value)
    with pytest.raises(ValidationError):
        declare_incident(DeclareIncident(title="   ", language="en", body="x"), actor=responder)
    assert not Incident.objects.exists()
    assert not AuditEvent.objects.exists()


def test_draft_incidents_are_not_public_and_do_not_touch_components(db, component):
    draft = declare_incident(
        DeclareIncident(
            title="p95 above 300 s",
            language="en",
            body="Opened by a probe.",
            component_statuses={component: "partial_outage"},
            publish=False,
        ),
        actor=None,
    )
    component.refresh_from_db()
    assert draft.is_draft and not Incident.objects.published().exists()
    assert component.status == "operational"
