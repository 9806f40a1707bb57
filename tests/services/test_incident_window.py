"""An incident's own times: declared with a start and no forced first update, resolved at a given
time, its start and resolution corrected later; and context events that change no status."""

import datetime as dt

import pytest
import time_machine
from django.core.exceptions import ValidationError

from incidents.lifecycle.commands import (
    DeclareIncident,
    EditIncident,
    EnterRecord,
    PostUpdate,
    ResolveIncident,
)
from incidents.lifecycle.edits import edit_incident
from incidents.lifecycle.opening import declare_incident, enter_record
from incidents.lifecycle.updates import post_update, resolve_incident
from incidents.models import AuditEvent, Incident, StatusPeriod

pytestmark = pytest.mark.django_db


def test_declaring_without_a_message_writes_no_update_and_takes_the_form_status(responder, at):
    with time_machine.travel(at, tick=False):
        incident = declare_incident(
            DeclareIncident(
                title="Slow search", language="en", status="identified", started_at=at - dt.timedelta(hours=1)
            ),
            actor=responder,
        )
    assert incident.updates.count() == 0
    assert incident.status == "identified"
    assert incident.started_at == at - dt.timedelta(hours=1)


def test_a_record_declared_without_a_message_writes_no_update_and_keeps_its_impact_from_the_start(
    responder, component, at
):
    start = dt.datetime(2018, 7, 13, 10, 0, tzinfo=dt.UTC)
    incident = enter_record(
        EnterRecord(
            title="Webhooks late",
            language="en",
            started_at=start,
            component_statuses={component: "partial_outage"},
        ),
        actor=responder,
    )
    assert incident.updates.count() == 0
    resolve_incident(
        incident,
        ResolveIncident(
            body={"en": "Delivered."}, language="en", display_at=start + dt.timedelta(minutes=40)
        ),
        actor=responder,
    )

    assert [update.body for update in incident.updates.all()] == [{"en": "Delivered."}]
    assert list(
        StatusPeriod.objects.filter(component=component, status="partial_outage").values_list(
            "started_at", "ended_at"
        )
    ) == [(start, start + dt.timedelta(minutes=40))]


def test_the_first_written_update_carries_what_a_text_less_declaration_changed(responder, component, at):
    with time_machine.travel(at, tick=False):
        incident = declare_incident(
            DeclareIncident(
                title="Webhooks late", language="en", component_statuses={component: "major_outage"}
            ),
            actor=responder,
        )
        component.refresh_from_db()
        assert incident.updates.count() == 0 and component.status == "major_outage"
        update = post_update(
            incident,
            PostUpdate(status="identified", body={"en": "A stuck queue."}, language="en"),
            actor=responder,
        )

    assert [(c.component, c.old_status, c.new_status) for c in update.component_changes.all()] == [
        (component, "operational", "major_outage")
    ]


def test_resolving_at_a_given_time_sets_the_resolution_time(responder, at):
    with time_machine.travel(at, tick=False):
        incident = declare_incident(
            DeclareIncident(title="Slow search", language="en", body="Looking."), actor=responder
        )
    with time_machine.travel(at + dt.timedelta(hours=3), tick=False):
        resolve_incident(
            incident,
            ResolveIncident(body={"en": "Fixed."}, language="en", display_at=at + dt.timedelta(minutes=50)),
            actor=responder,
        )
    incident.refresh_from_db()
    assert incident.status == "resolved"
    assert incident.resolved_at == at + dt.timedelta(minutes=50)


@pytest.fixture
def resolved(responder, at):
    with time_machine.travel(at, tick=False):
        incident = declare_incident(
            DeclareIncident(title="Slow search", language="en", body="Looking."), actor=responder
        )
        resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)
    incident.refresh_from_db()
    return incident


def test_editing_the_start_and_resolution_is_audited(resolved, responder, at):
    with time_machine.travel(at + dt.timedelta(hours=1), tick=False):
        edit_incident(
            resolved,
            EditIncident(
                expected_version=resolved.version,
                started_at=at - dt.timedelta(minutes=30),
                resolved_at=at + dt.timedelta(minutes=20),
            ),
            actor=responder,
        )
    resolved.refresh_from_db()
    assert resolved.started_at == at - dt.timedelta(minutes=30)
    assert resolved.resolved_at == at + dt.timedelta(minutes=20)
    event = AuditEvent.objects.filter(action="incident.edited").get()
    assert event.before["started_at"] == at.isoformat()
    assert event.after["started_at"] == (at - dt.timedelta(minutes=30)).isoformat()
    assert event.after["resolved_at"] == (at + dt.timedelta(minutes=20)).isoformat()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("started_at", dt.datetime(1969, 12, 31, tzinfo=dt.UTC)),
        ("started_at", dt.datetime(2030, 1, 1, tzinfo=dt.UTC)),
        ("resolved_at", dt.datetime(1969, 12, 31, tzinfo=dt.UTC)),
        ("resolved_at", dt.datetime(2030, 1, 1, tzinfo=dt.UTC)),
    ],
)
def test_out_of_bounds_times_are_refused_naming_the_field(resolved, responder, at, field, value):
    with time_machine.travel(at + dt.timedelta(hours=1), tick=False):
        with pytest.raises(ValidationError) as refused:
            edit_incident(
                resolved, EditIncident(expected_version=resolved.version, **{field: value}), actor=responder
            )
    assert field in refused.value.message_dict
    stored = Incident.objects.get(pk=resolved.pk)
    assert (stored.started_at, stored.resolved_at) == (resolved.started_at, resolved.resolved_at)


def test_a_resolution_before_the_start_is_refused(resolved, responder):
    with pytest.raises(ValidationError) as refused:
        edit_incident(
            resolved,
            EditIncident(
                expected_version=resolved.version, resolved_at=resolved.started_at - dt.timedelta(minutes=1)
            ),
            actor=responder,
        )
    assert "resolved_at" in refused.value.message_dict


def test_a_note_changes_no_status_and_notifies_nobody(responder, at):
    with time_machine.travel(at, tick=False):
        incident = declare_incident(
            DeclareIncident(title="Slow search", language="en", body="Looking."), actor=responder
        )
        post_update(
            incident,
            PostUpdate(status="identified", body={"en": "Found it."}, language="en"),
            actor=responder,
        )
    with time_machine.travel(at + dt.timedelta(minutes=10), tick=False):
        note = post_update(
            incident, PostUpdate(status=None, body={"en": "Customers told."}, language="en"), actor=responder
        )
    incident.refresh_from_db()
    assert incident.status == "identified"
    assert note.status == "" and not note.deliver_notifications
    assert note.status_label == "Note"


def test_a_deploy_before_the_start_comes_first_in_time_and_is_no_investigation(responder, at):
    with time_machine.travel(at, tick=False):
        incident = declare_incident(
            DeclareIncident(title="Slow search", language="en", body="Looking."), actor=responder
        )
        deploy = post_update(
            incident,
            PostUpdate(
                status=None,
                body={"en": "Deployed 4.2."},
                language="en",
                display_at=at - dt.timedelta(hours=1),
            ),
            actor=responder,
        )
    oldest = list(incident.updates.timeline())[-1]
    assert oldest == deploy
    assert oldest.status_label != "Investigating"
    incident.refresh_from_db()
    assert incident.status == "investigating"
