import pytest
from django.core.exceptions import ValidationError

from incidents.lifecycle.commands import DeclareIncident, PostUpdate, ReopenIncident, ScheduleMaintenance
from incidents.lifecycle.opening import declare_incident, schedule_maintenance
from incidents.lifecycle.updates import post_update, reopen_incident
from incidents.metrics.indicator import page_indicator
from incidents.models import ComponentStatus, Incident, IncidentStatus


def test_statuses_use_statuspage_machine_values():
    assert [s.value for s in ComponentStatus] == [
        "operational",
        "degraded_performance",
        "partial_outage",
        "major_outage",
        "under_maintenance",
    ]
    assert [s.value for s in IncidentStatus] == [
        "investigating",
        "identified",
        "monitoring",
        "resolved",
        "scheduled",
        "in_progress",
        "verifying",
        "completed",
    ]


def test_worst_status_ranks_outages_above_maintenance_above_degraded():
    assert ComponentStatus.worst([]) == ComponentStatus.OPERATIONAL
    assert ComponentStatus.worst(["operational", "degraded_performance"]) == "degraded_performance"
    assert ComponentStatus.worst(["degraded_performance", "under_maintenance"]) == "under_maintenance"
    assert ComponentStatus.worst(["under_maintenance", "partial_outage"]) == "partial_outage"
    assert ComponentStatus.worst(["major_outage", "partial_outage"]) == "major_outage"


@pytest.mark.parametrize(
    ("statuses", "indicator", "description"),
    [
        ([], "none", "All Systems Operational"),
        (["operational", "degraded_performance"], "minor", "Partially Degraded Service"),
        (["partial_outage", "degraded_performance"], "major", "Partial System Outage"),
        (["major_outage", "under_maintenance"], "critical", "Major System Outage"),
        (["under_maintenance", "operational"], "maintenance", "Service Under Maintenance"),
    ],
)
def test_page_indicator_follows_statuspage(statuses, indicator, description):
    result = page_indicator(statuses)
    assert (result.value, result.description) == (indicator, description)


def test_maintenance_statuses_are_refused_on_an_incident(db, responder):
    incident = declare_incident(
        DeclareIncident(title="Slow API", language="en", body="Looking."), actor=responder
    )
    with pytest.raises(ValidationError) as error:
        post_update(
            incident, PostUpdate(status="in_progress", body={"en": "x"}, language="en"), actor=responder
        )
    assert "status" in error.value.message_dict
    assert incident.updates.count() == 1


def test_incident_moves_through_its_statuses_and_can_reopen(db, responder):
    incident = declare_incident(
        DeclareIncident(title="Slow API", language="en", body="Looking."), actor=responder
    )
    for status in ("identified", "monitoring", "resolved"):
        post_update(incident, PostUpdate(status=status, body={"en": status}, language="en"), actor=responder)
        assert incident.status == status
    assert incident.resolved_at is not None and incident.monitoring_at is not None
    reopen_incident(incident, ReopenIncident(body={"en": "It is back."}, language="en"), actor=responder)
    assert incident.status == "investigating" and incident.resolved_at is None
    assert Incident.objects.open().filter(pk=incident.pk).exists()


def test_maintenance_needs_a_window_that_ends_after_it_starts(db, responder, at):
    with pytest.raises(ValidationError) as error:
        schedule_maintenance(
            ScheduleMaintenance(
                title="DB upgrade", language="en", body="Planned.", scheduled_for=at, scheduled_until=at
            ),
            actor=responder,
        )
    assert "scheduled_until" in error.value.message_dict
    assert not Incident.objects.exists()
