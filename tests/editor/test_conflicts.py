"""Two responders editing the same thing: the second save gets a conflict, never an overwrite."""

import pytest
from django.contrib.auth import get_user_model

from incidents.models import Postmortem, UpdateTemplate
from incidents.roles import Role, assign_role

from .conftest import logged_in


@pytest.fixture
def colleague(db):
    user = get_user_model().objects.create_user(username="carl", password="x")
    assign_role(user, Role.RESPONDER)
    return logged_in(user)


@pytest.fixture
def me(responder):
    return logged_in(responder)


@pytest.mark.django_db
def test_second_incident_edit_gets_a_conflict_showing_both_versions(me, colleague, incident):
    seen_version = incident.version  # both opened the edit form at this version
    first = colleague.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {"title": "Their title", "impact": "major", "version": seen_version},
    )
    assert first.status_code == 302
    second = me.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {"title": "My title", "impact": "critical", "version": seen_version},
    )
    assert second.status_code == 409
    page = second.content.decode()
    assert "My title" in page and "Their title" in page
    incident.refresh_from_db()
    assert incident.title["en"] == "Their title" and incident.impact == "major"


@pytest.mark.django_db
def test_keeping_my_version_after_a_conflict_saves_it_deliberately(me, colleague, incident):
    seen_version = incident.version
    colleague.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {"title": "Theirs", "impact": "major", "version": seen_version},
    )
    conflict = me.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {"title": "Mine", "impact": "minor", "version": seen_version},
    )
    incident.refresh_from_db()
    assert f'name="version" value="{incident.version}"'.encode() in conflict.content
    retried = me.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {"title": "Mine", "impact": "minor", "version": incident.version},
    )
    assert retried.status_code == 302
    incident.refresh_from_db()
    assert incident.title["en"] == "Mine"


@pytest.mark.django_db
def test_second_update_correction_gets_a_conflict(me, colleague, incident):
    update = incident.updates.get()
    colleague.post(f"/editor/updates/{update.pk}/en/", {"text": "Their wording.", "version": update.version})
    response = me.post(f"/editor/updates/{update.pk}/en/", {"text": "My wording.", "version": update.version})
    assert response.status_code == 409
    assert b"Their wording." in response.content and b"My wording." in response.content
    update.refresh_from_db()
    assert update.body["en"] == "Their wording."


@pytest.mark.django_db
def test_second_postmortem_save_gets_a_conflict(me, colleague, postmortem, incident):
    seen = postmortem.version
    colleague.post(
        f"/editor/incidents/{incident.pk}/postmortem/en/", {"summary": "Their summary.", "version": seen}
    )
    response = me.post(
        f"/editor/incidents/{incident.pk}/postmortem/en/", {"summary": "My summary.", "version": seen}
    )
    assert response.status_code == 409
    assert b"Their summary." in response.content and b"My summary." in response.content
    assert Postmortem.objects.get().summary["en"] == "Their summary."


@pytest.mark.django_db
def test_resolving_after_someone_else_posted_gets_a_conflict(me, colleague, incident):
    seen = incident.version
    colleague.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {"status": "identified", "language": "en", "body": "Found it."},
    )
    response = me.post(
        f"/editor/incidents/{incident.pk}/resolve/",
        {"resolve-language": "en", "resolve-body": "Done.", "resolve-version": seen},
    )
    assert response.status_code == 409
    assert b"Found it." in response.content and b"Done." in response.content
    incident.refresh_from_db()
    assert incident.status == "identified"


@pytest.mark.django_db
def test_second_template_edit_gets_a_conflict(me, colleague):
    template = UpdateTemplate.objects.create(name="Fixed", language="en", body={"en": "Fixed."})
    data = {"name": "Fixed", "language": "en", "kind": "incident", "status": "", "version": 1}
    colleague.post(f"/editor/templates/{template.pk}/", {**data, "body_en": "Theirs."})
    response = me.post(f"/editor/templates/{template.pk}/", {**data, "body_en": "Mine."})
    assert response.status_code == 409
    template.refresh_from_db()
    assert template.body == {"en": "Theirs."}
