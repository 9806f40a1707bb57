"""Edits in the Django admin leave an audit event and reach the public pages at once."""

import pytest
from django.contrib import admin as django_admin

from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident
from incidents.models import AuditEvent, Incident, Subject
from incidents.public import versions

pytestmark = pytest.mark.django_db


@pytest.fixture
def incident(admin):
    return declare_incident(
        DeclareIncident(title="Webhooks delayed", language="en", body="Looking."), actor=admin
    )


def test_an_incident_deleted_in_the_admin_is_audited_and_drops_cached_pages(
    admin_client, admin_user, incident, django_capture_on_commit_callbacks
):
    before = versions.content_version()
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            "/admin/incidents/incident/",
            {"action": "delete_selected", "_selected_action": [incident.pk], "post": "yes"},
        )
    assert response.status_code == 302
    assert not Incident.objects.filter(pk=incident.pk).exists()
    event = AuditEvent.objects.get(subject_type=Subject.INCIDENT, action="admin_deleted")
    assert (event.actor, event.subject_id) == (admin_user, str(incident.pk))
    assert versions.content_version() > before


def test_an_incident_changed_in_the_admin_is_audited_with_its_incident(
    rf, admin_user, incident, django_capture_on_commit_callbacks
):
    model_admin = django_admin.site._registry[Incident]
    request = rf.post("/admin/")
    request.user = admin_user
    form = model_admin.get_form(request, incident)(instance=incident)
    form.save_m2m = lambda: None  # what save(commit=False) leaves for save_related
    incident.title = {"en": "Webhooks delayed in the EU"}
    incident.save()
    before = versions.content_version()
    with django_capture_on_commit_callbacks(execute=True):
        model_admin.save_related(request, form, formsets=[], change=True)
    event = AuditEvent.objects.get(subject_type=Subject.INCIDENT, action="admin_changed")
    assert (event.actor, event.incident) == (admin_user, incident)
    assert versions.content_version() > before
