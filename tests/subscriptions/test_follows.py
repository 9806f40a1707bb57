"""Following one incident: the follow rests when the incident resolves, wakes if it reopens,
and an explicit unsubscribe stays final."""

import re

import pytest

from incidents.channels import outbox
from incidents.channels.links import manage_token
from incidents.lifecycle.commands import PostUpdate, ReopenIncident, ResolveIncident
from incidents.lifecycle.updates import post_update, reopen_incident, resolve_incident
from incidents.models import Subscriber
from incidents.services.subscriptions import confirm_subscription, subscribe

pytestmark = pytest.mark.django_db


@pytest.fixture
def incident(declare):
    return declare()


@pytest.fixture
def follower(incident):
    result = subscribe(email="fan@example.com", language="en", incident=incident, send_mail=False)
    return confirm_subscription(result.subscriber)


def bodies_received(smtp_sink, address: str) -> list[str]:
    return [m.get_body(("plain",)).get_content() for m in smtp_sink.messages if m["To"] == address]


def received(smtp_sink, address: str, text: str) -> bool:
    return any(text in body for body in bodies_received(smtp_sink, address))


def test_a_follower_receives_the_resolving_update_and_then_hears_about_a_reopen(
    smtp_sink, incident, follower, responder
):
    resolve_incident(
        incident, ResolveIncident(body={"en": "Fixed by a rollback."}, language="en"), actor=responder
    )
    outbox.deliver_due(seconds=30)
    assert received(smtp_sink, follower.email, "Fixed by a rollback.")
    follower.refresh_from_db()
    assert follower.is_resting and not follower.is_active

    reopen_incident(
        incident, ReopenIncident(body={"en": "The errors are back."}, language="en"), actor=responder
    )
    post_update(
        incident,
        PostUpdate(status="identified", body={"en": "A second cause."}, language="en"),
        actor=responder,
    )
    outbox.deliver_due(seconds=30)

    assert received(smtp_sink, follower.email, "The errors are back.")
    assert received(smtp_sink, follower.email, "A second cause.")
    follower.refresh_from_db()
    assert follower.is_active and follower.unsubscribed_at is None


def test_a_follower_who_unsubscribed_with_one_click_hears_nothing_of_a_reopen(
    client, smtp_sink, incident, follower, responder
):
    resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)
    outbox.deliver_due(seconds=30)
    # The link in the resolving mail: RFC 8058 one-click, after the follow came to rest.
    response = client.post(
        f"/subscribe/unsubscribe/{manage_token(follower)}/", {"List-Unsubscribe": "One-Click"}
    )
    assert response.status_code == 200
    sent_before = len(smtp_sink.messages)

    reopen_incident(
        incident, ReopenIncident(body={"en": "The errors are back."}, language="en"), actor=responder
    )
    outbox.deliver_due(seconds=30)

    assert len(smtp_sink.messages) == sent_before
    assert not received(smtp_sink, follower.email, "The errors are back.")
    follower.refresh_from_db()
    assert follower.unsubscribed_at is not None and not follower.is_active


def test_a_follower_who_unsubscribed_before_the_resolution_stays_unsubscribed(
    client, smtp_sink, incident, follower, responder
):
    client.post(f"/subscribe/unsubscribe/{manage_token(follower)}/", {"List-Unsubscribe": "One-Click"})

    resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)
    reopen_incident(
        incident, ReopenIncident(body={"en": "The errors are back."}, language="en"), actor=responder
    )
    outbox.deliver_due(seconds=30)

    assert bodies_received(smtp_sink, follower.email) == []
    assert not Subscriber.objects.get(pk=follower.pk).is_active


def test_the_manage_page_of_a_resting_follow_says_so_and_still_offers_unsubscribe(
    client, incident, follower, responder
):
    resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)

    response = client.get(f"/subscribe/manage/{manage_token(follower)}/")

    assert response.status_code == 200
    assert b"You will hear about it again only if it reopens." in response.content
    # Signed tokens carry the second they were made, so the page's link is followed rather than
    # compared with a token made here.
    unsubscribe_path = re.search(rb'action="(/subscribe/unsubscribe/[^"]+)"', response.content)
    assert unsubscribe_path is not None
    client.post(unsubscribe_path.group(1).decode(), {"List-Unsubscribe": "One-Click"})
    follower.refresh_from_db()
    assert follower.unsubscribed_at is not None
