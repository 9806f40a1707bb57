"""Mail subjects are plain text: what the title says, no HTML entities, never a second line."""

import pytest
from django.core import mail

from incidents.channels import outbox
from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.edits import publish_incident
from incidents.lifecycle.opening import declare_incident
from incidents.models import Incident
from incidents.services.subscriptions import confirm_subscription, subscribe

pytestmark = pytest.mark.django_db

TITLE = '<b>DB & "cache"</b>'


@pytest.fixture
def reader(component):
    return confirm_subscription(
        subscribe(email="reader@example.com", language="en", send_mail=False).subscriber
    )


def test_an_update_subject_shows_the_title_as_written(reader, component, responder, settings):
    settings.STATUS_PAGE_NAME = "Acme & Co"
    declare_incident(
        DeclareIncident(
            title=TITLE, language="en", body="Looking.", component_statuses={component: "major_outage"}
        ),
        actor=responder,
    )
    outbox.deliver_due(seconds=5)
    [message] = mail.outbox
    assert message.subject == f"[Acme & Co] Incident — Investigating: {TITLE}"


def test_a_title_with_line_breaks_stays_one_subject_line(reader, component, responder):
    # Titles with control characters are refused since; one stored before still makes one line.
    draft = declare_incident(
        DeclareIncident(
            title="DB down",
            language="en",
            body="Looking.",
            component_statuses={component: "major_outage"},
            publish=False,
        ),
        actor=responder,
    )
    Incident.objects.filter(pk=draft.pk).update(title={"en": "DB down\r\nBcc: victim@example.com"})
    publish_incident(draft, actor=responder)
    outbox.deliver_due(seconds=5)
    [message] = mail.outbox
    assert "\n" not in message.subject and "\r" not in message.subject
    assert message.subject.endswith("DB down Bcc: victim@example.com")
    assert message.bcc == []


def test_the_confirmation_subject_shows_the_page_name_as_written(
    db, settings, django_capture_on_commit_callbacks
):
    settings.STATUS_PAGE_NAME = 'Acme "<Status>" & Co'
    with django_capture_on_commit_callbacks(execute=True):
        subscribe(email="new@example.com", language="en")
    [message] = mail.outbox
    assert message.subject == 'Confirm your subscription to Acme "<Status>" & Co'
