"""Correcting update texts and keeping update templates."""

import pytest
from django.core.exceptions import ValidationError

from incidents.lifecycle.commands import DeclareIncident, EditUpdate
from incidents.lifecycle.edits import edit_update
from incidents.lifecycle.opening import declare_incident
from incidents.models import AuditEvent, UpdateTemplate
from incidents.services.update_templates import delete_update_template, save_update_template
from incidents.validation.concurrency import ConcurrentEdit


@pytest.fixture
def update(responder):
    incident = declare_incident(
        DeclareIncident(title="Outage", language="en", body="Investigating."), actor=responder
    )
    return incident.updates.get()


@pytest.mark.django_db
def test_correcting_adds_a_translation_and_bumps_the_version(update, responder):
    edited = edit_update(
        update, EditUpdate(language="nb", text="Undersøker.", expected_version=1), actor=responder
    )
    assert edited.body == {"en": "Investigating.", "nb": "Undersøker."}
    assert edited.version == 2
    event = AuditEvent.objects.get(action="update.edited")
    assert event.before == {"body": {"en": "Investigating."}}


@pytest.mark.django_db
def test_a_stale_correction_is_refused(update, responder):
    edit_update(update, EditUpdate(language="en", text="First.", expected_version=1), actor=responder)
    with pytest.raises(ConcurrentEdit) as raised:
        edit_update(update, EditUpdate(language="en", text="Second.", expected_version=1), actor=responder)
    assert raised.value.current.body["en"] == "First."


@pytest.mark.django_db
def test_the_original_text_cannot_be_emptied_but_a_translation_can(update, responder):
    with pytest.raises(ValidationError):
        edit_update(update, EditUpdate(language="en", text=" ", expected_version=1), actor=responder)
    edit_update(update, EditUpdate(language="nb", text="Hei.", expected_version=1), actor=responder)
    edited = edit_update(update, EditUpdate(language="nb", text="", expected_version=2), actor=responder)
    assert edited.body == {"en": "Investigating."}


@pytest.mark.django_db
def test_templates_are_versioned_and_deleted_with_a_trail(responder):
    template = save_update_template(
        UpdateTemplate(name="Fixed", language="en", body={"en": "Fixed."}), actor=responder
    )
    template.body = {"en": "A fix is deployed."}
    save_update_template(template, actor=responder, expected_version=1)
    assert UpdateTemplate.objects.get().version == 2
    stale = UpdateTemplate.objects.get()
    stale.body = {"en": "Old view"}
    with pytest.raises(ConcurrentEdit):
        save_update_template(stale, actor=responder, expected_version=1)
    delete_update_template(UpdateTemplate.objects.get(), actor=responder)
    assert not UpdateTemplate.objects.exists()
    deleted = AuditEvent.objects.get(action="update_template.deleted")
    assert deleted.before["body"] == {"en": "A fix is deployed."}


@pytest.mark.django_db
def test_a_template_in_an_unknown_language_is_refused(responder):
    with pytest.raises(ValidationError):
        save_update_template(UpdateTemplate(name="Oui", language="fr", body={"fr": "Oui."}), actor=responder)
