"""Maintenance announced ahead changes its components only while its window is open."""

import datetime as dt

import pytest
import time_machine
from rest_framework.test import APIClient

from incidents.lifecycle.commands import DeclareIncident, ResolveIncident, ScheduleMaintenance
from incidents.lifecycle.opening import declare_incident, schedule_maintenance
from incidents.lifecycle.updates import resolve_incident
from incidents.models import Component, Incident
from incidents.tasks.maintenance import advance_maintenance_windows

ANNOUNCED = dt.datetime(2026, 7, 1, 9, 0, tzinfo=dt.UTC)
START = ANNOUNCED + dt.timedelta(days=2)
END = START + dt.timedelta(hours=2)


def status_of(component: Component) -> str:
    component.refresh_from_db()
    return component.status


@pytest.mark.django_db
def test_maintenance_scheduled_through_the_api_waits_for_its_window(component, responder):
    client = APIClient()
    client.force_login(responder)
    with time_machine.travel(ANNOUNCED, tick=False):
        response = client.post(
            "/api/v1/incidents/",
            {
                "kind": "maintenance",
                "title": "Database upgrade",
                "language": "en",
                "body": "We upgrade the database.",
                "components": [{"component": component.public_id, "status": "under_maintenance"}],
                "scheduled_for": START.isoformat(),
                "scheduled_until": END.isoformat(),
            },
            format="json",
        )
        assert response.status_code == 201, response.json()
        assert status_of(component) == "operational"
    maintenance = Incident.objects.get(public_id=response.json()["id"])
    assert list(maintenance.components.all()) == [component]

    with time_machine.travel(START - dt.timedelta(minutes=1), tick=False):
        advance_maintenance_windows()
    assert status_of(component) == "operational"

    with time_machine.travel(START + dt.timedelta(seconds=30), tick=False):
        assert advance_maintenance_windows() == (1, 0)
    assert status_of(component) == "under_maintenance"

    with time_machine.travel(END + dt.timedelta(seconds=30), tick=False):
        assert advance_maintenance_windows() == (0, 1)
    assert status_of(component) == "operational"
    maintenance.refresh_from_db()
    assert maintenance.status == "completed"


@pytest.mark.django_db
def test_an_outage_resolved_while_maintenance_is_only_scheduled_returns_the_component_to_operational(
    component, responder
):
    with time_machine.travel(ANNOUNCED, tick=False):
        schedule_maintenance(
            ScheduleMaintenance(
                title="Database upgrade",
                language="en",
                body="We upgrade the database.",
                component_statuses={component: "under_maintenance"},
                scheduled_for=START,
                scheduled_until=END,
            ),
            actor=responder,
        )
        outage = declare_incident(
            DeclareIncident(
                title="Database down",
                language="en",
                body="Investigating.",
                component_statuses={component: "major_outage"},
            ),
            actor=responder,
        )
        assert status_of(component) == "major_outage"

        resolve_incident(outage, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)

    # The maintenance has not started: it holds nothing yet.
    assert status_of(component) == "operational"
