"""Who was told: each update on the incident screen shows its deliveries per channel (queued,
sent, failed); responders retry the failed ones; viewers see counts, never recipients."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from incidents.channels import outbox
from incidents.lifecycle.commands import DeclareIncident, PostUpdate
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import post_update
from incidents.models import AuditEvent, Channel, Delivery, DeliveryState, Subscriber
from incidents.selectors.deliveries import delivery_counts

pytestmark = pytest.mark.django_db

ADDRESS = "reader@example.com"
# A private address: the outbound guard refuses it for good, so its delivery fails at once.
HOOK_URL = "http://127.0.0.1:9/hooks/secret-token"


@pytest.fixture
def subscribers(db):
    reader = Subscriber.objects.create(email=ADDRESS, all_components=True, confirmed_at=timezone.now())
    hook = Subscriber.objects.create(
        channel=Channel.WEBHOOK,
        email="ops@example.com",
        endpoint_url=HOOK_URL,
        all_components=True,
        confirmed_at=timezone.now(),
    )
    return reader, hook


@pytest.fixture
def told_incident(subscribers, incident):
    # `subscribers` comes first, so the declaration of `incident` is sent to them.
    return incident


def block(page: str, update) -> str:
    found = re.search(rf'<div class="deliveries" id="deliveries-{update.pk}".*?</div>', page, re.S)
    assert found, f"no delivery block for update {update.pk}"
    return found.group(0)


def counts(html: str, channel: str) -> dict[str, int]:
    row = re.search(rf'<li data-channel="{channel}">.*?</li>', html, re.S).group(0)
    return {state: int(n) for state, n in re.findall(r'data-state="(\w+)">(\d+)<', row)}


def screen(client, incident) -> str:
    response = client.get(f"/editor/incidents/{incident.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_an_update_shows_its_deliveries_queued_then_sent_or_failed_per_channel(clients, told_incident):
    update = told_incident.updates.get()

    queued = block(screen(clients["responder"], told_incident), update)
    assert counts(queued, "email") == {"queued": 1, "sent": 0, "failed": 0}
    assert counts(queued, "webhook") == {"queued": 1, "sent": 0, "failed": 0}
    assert "data-live" in queued  # the page keeps asking while something is queued

    outbox.deliver_due(seconds=30)

    settled = block(screen(clients["responder"], told_incident), update)
    assert counts(settled, "email") == {"queued": 0, "sent": 1, "failed": 0}
    assert counts(settled, "webhook") == {"queued": 0, "sent": 0, "failed": 1}
    assert "data-live" not in settled
    assert len(mail.outbox) == 1


def test_each_update_has_its_own_counts(clients, told_incident, responder):
    outbox.deliver_due(seconds=30)
    second = post_update(
        told_incident,
        PostUpdate(status="identified", body={"en": "Found it."}, language="en"),
        actor=responder,
    )
    first = told_incident.updates.exclude(pk=second.pk).get()

    page = screen(clients["viewer"], told_incident)

    assert counts(block(page, first), "email") == {"queued": 0, "sent": 1, "failed": 0}
    assert counts(block(page, second), "email") == {"queued": 1, "sent": 0, "failed": 0}


def test_an_update_posted_with_notifications_off_says_nobody_was_told(clients, told_incident, responder):
    quiet = post_update(
        told_incident,
        PostUpdate(status="identified", body={"en": "Quiet."}, language="en", notify=False),
        actor=responder,
    )

    html = block(screen(clients["responder"], told_incident), quiet)

    assert 'data-notify="off"' in html
    assert "data-channel" not in html
    assert not Delivery.objects.filter(update=quiet).exists()


def test_viewers_see_counts_but_never_addresses_urls_or_the_retry(clients, told_incident):
    outbox.deliver_due(seconds=30)
    update = told_incident.updates.get()

    page = screen(clients["viewer"], told_incident)

    assert counts(block(page, update), "webhook")["failed"] == 1
    assert ADDRESS not in page and "ops@example.com" not in page
    assert "127.0.0.1:9" not in page and "secret-token" not in page
    assert "retry" not in block(page, update).lower()
    assert "/editor/deliveries/?update=" not in page  # the recipients list is for admins


def test_admins_can_open_the_recipients_of_one_update(clients, told_incident, responder):
    outbox.deliver_due(seconds=30)
    other = declare_incident(DeclareIncident(title="Other", language="en", body="Other."), actor=responder)
    outbox.deliver_due(seconds=30)
    update = told_incident.updates.get()

    page = screen(clients["admin"], told_incident)
    assert f'href="/editor/deliveries/?update={update.pk}"' in page
    listing = clients["admin"].get(f"/editor/deliveries/?update={update.pk}").content.decode()

    assert listing.count("<tr>") == 2  # the header and the one failed webhook of this update
    assert HOOK_URL in listing
    assert Delivery.objects.filter(update__incident=other, state=DeliveryState.FAILED).exists()
    assert clients["admin"].get("/editor/deliveries/?update=x").status_code == 400
    assert clients["admin"].get("/editor/deliveries/?update=999999").status_code == 404


def test_retrying_requeues_only_the_failed_deliveries_and_is_audited(clients, told_incident):
    outbox.deliver_due(seconds=30)
    update = told_incident.updates.get()
    of_update = Delivery.objects.filter(update=update)
    sent_before = of_update.get(channel=Channel.EMAIL)

    response = clients["responder"].post(f"/editor/updates/{update.pk}/deliveries/retry/", follow=True)

    assert response.status_code == 200
    hook = of_update.get(channel=Channel.WEBHOOK)
    assert (hook.state, hook.attempts, hook.last_error) == (DeliveryState.PENDING, 0, "")
    email = of_update.get(channel=Channel.EMAIL)
    assert (email.state, email.sent_at) == (DeliveryState.SENT, sent_before.sent_at)
    event = AuditEvent.objects.get(action="deliveries.retried")
    assert (event.actor.username, event.incident_id, event.after) == (
        "rita",
        told_incident.pk,
        {"retried": 1},
    )
    assert "1 failed delivery is queued again." in response.content.decode()

    outbox.deliver_due(seconds=30)
    assert len(mail.outbox) == 1  # what was sent is not sent again
    assert of_update.get(channel=Channel.WEBHOOK).idempotency_key == hook.idempotency_key


def test_a_retry_with_nothing_failed_changes_nothing(clients, told_incident):
    update = told_incident.updates.get()

    response = clients["responder"].post(f"/editor/updates/{update.pk}/deliveries/retry/", follow=True)

    assert "nothing to retry" in response.content.decode()
    assert set(Delivery.objects.filter(update=update).values_list("state", flat=True)) == {
        DeliveryState.PENDING
    }
    assert not AuditEvent.objects.filter(action="deliveries.retried").exists()


@pytest.mark.parametrize("persona, expected", [("viewer", 403), ("outsider", 403), ("anonymous", 302)])
def test_only_responders_retry(clients, told_incident, persona, expected):
    outbox.deliver_due(seconds=30)
    update = told_incident.updates.get()

    response = clients[persona].post(f"/editor/updates/{update.pk}/deliveries/retry/")

    assert response.status_code == expected
    assert Delivery.objects.get(update=update, channel=Channel.WEBHOOK).state == DeliveryState.FAILED
    assert not AuditEvent.objects.filter(action="deliveries.retried").exists()


def test_retry_is_a_post_with_a_csrf_token(responder, told_incident):
    client = Client(enforce_csrf_checks=True)
    client.force_login(responder)
    update = told_incident.updates.get()

    assert client.get(f"/editor/updates/{update.pk}/deliveries/retry/").status_code == 405
    assert client.post(f"/editor/updates/{update.pk}/deliveries/retry/").status_code == 403


def test_the_block_alone_is_served_for_the_live_refresh(clients, told_incident):
    update = told_incident.updates.get()

    response = clients["viewer"].get(f"/editor/updates/{update.pk}/deliveries/")

    assert response.status_code == 200
    assert counts(response.content.decode(), "email") == {"queued": 1, "sent": 0, "failed": 0}
    assert clients["outsider"].get(f"/editor/updates/{update.pk}/deliveries/").status_code == 403
    assert clients["viewer"].get("/editor/updates/999999/deliveries/").status_code == 404


def test_counts_for_many_updates_take_one_query(told_incident, responder, django_assert_num_queries):
    for status in ("identified", "monitoring"):
        post_update(
            told_incident, PostUpdate(status=status, body={"en": status}, language="en"), actor=responder
        )
    updates = list(told_incident.updates.all())

    with django_assert_num_queries(1):
        found = delivery_counts(updates)

    assert [found[u.pk].queued for u in updates] == [2, 2, 2]


def test_a_delivery_being_sent_still_counts_as_queued(told_incident):
    update = told_incident.updates.get()
    Delivery.objects.filter(update=update, channel=Channel.EMAIL).update(state=DeliveryState.SENDING)

    counts_now = delivery_counts([update])[update.pk]

    assert counts_now.channels["email"].as_dict() == {"queued": 1, "sent": 0, "failed": 0}
    assert (counts_now.queued, counts_now.sent, counts_now.failed) == (2, 0, 0)


def test_retrying_one_delivery_from_the_staff_list_is_audited_without_its_recipient(clients, told_incident):
    outbox.deliver_due(seconds=30)
    failed = Delivery.objects.get(
        update__incident=told_incident, channel=Channel.WEBHOOK, update__isnull=False
    )

    response = clients["responder"].post(f"/editor/deliveries/{failed.pk}/retry/")

    assert response.status_code == 302
    failed.refresh_from_db()
    assert (failed.state, failed.attempts) == (DeliveryState.PENDING, 0)
    event = AuditEvent.objects.get(action="deliveries.retried")
    assert (event.actor.username, event.incident_id, event.subject_label) == (
        "rita",
        told_incident.pk,
        failed.idempotency_key,
    )
    assert HOOK_URL not in str(event.after) and "ops@example.com" not in event.subject_label
