"""The Django admin shows the incident lifecycle but cannot write around its commands."""

import pytest

from incidents.lifecycle.commands import DeclareIncident, ResolveIncident
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import resolve_incident
from incidents.models import AuditEvent, Incident, IncidentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def incident(admin):
    declared = declare_incident(
        DeclareIncident(title="Webhooks delayed", language="en", body="Looking."), actor=admin
    )
    resolve_incident(declared, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=admin)
    declared.refresh_from_db()
    return declared


def test_an_admin_sees_an_incident_in_the_admin(admin_client, incident):
    response = admin_client.get(f"/admin/incidents/incident/{incident.pk}/change/")
    assert response.status_code == 200
    assert "Webhooks delayed" in response.content.decode()


def test_an_admin_post_cannot_change_an_incidents_status_times_or_version(admin_client, incident):
    events = AuditEvent.objects.count()
    response = admin_client.post(
        f"/admin/incidents/incident/{incident.pk}/change/",
        {
            "status": IncidentStatus.INVESTIGATING,
            "resolved_at_0": "2020-01-01",
            "resolved_at_1": "00:00:00",
            "version": "1",
        },
    )
    assert response.status_code == 403
    stored = Incident.objects.get(pk=incident.pk)
    assert (stored.status, stored.resolved_at, stored.version) == (
        IncidentStatus.RESOLVED,
        incident.resolved_at,
        incident.version,
    )
    assert AuditEvent.objects.count() == events


@pytest.mark.parametrize(
    "url",
    [
        "/admin/incidents/incident/add/",
        "/admin/incidents/incidentupdate/add/",
        "/admin/incidents/postmortem/add/",
    ],
)
def test_the_admin_adds_nothing_to_the_lifecycle(admin_client, url):
    assert admin_client.post(url, {}).status_code == 403


def test_an_admin_cannot_delete_an_incident_in_the_admin(admin_client, incident):
    response = admin_client.post(
        "/admin/incidents/incident/",
        {"action": "delete_selected", "_selected_action": [incident.pk], "post": "yes"},
    )
    assert Incident.objects.filter(pk=incident.pk).exists()
    assert (
        admin_client.post(f"/admin/incidents/incident/{incident.pk}/delete/", {"post": "yes"}).status_code
        == 403
    )
    assert response.status_code in (200, 302)
