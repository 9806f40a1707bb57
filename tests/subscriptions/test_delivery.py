"""Delivering the outbox: who receives what, in which language, with which headers; retries,
backoff, leases and the sweep. Mail goes to a real local SMTP sink (aiosmtpd)."""

import datetime as dt
import types

import pytest
import time_machine
from django.utils import timezone

from incidents.channels import email as email_channel
from incidents.channels import outbox
from incidents.lifecycle.commands import PostUpdate
from incidents.lifecycle.edits import publish_incident
from incidents.lifecycle.updates import post_update
from incidents.models import Delivery, DeliveryState, Subscriber
from incidents.tasks import notify

pytestmark = pytest.mark.django_db


def later(minutes: float):
    """Travel to a moment when every retry scheduled so far is due."""
    return time_machine.travel(timezone.now() + dt.timedelta(minutes=minutes), tick=True)


def test_only_subscribers_of_an_affected_component_are_notified(make_subscriber, make_component, declare):
    other = make_component("dashboard")
    everything = make_subscriber("all@example.com")
    webhooks_only = make_subscriber(
        "hooks-fan@example.com",
        components=[Subscriber._meta.apps.get_model("incidents", "Component").objects.get(slug="webhooks")],
    )
    dashboard_only = make_subscriber("dash@example.com", components=[other])
    unconfirmed = make_subscriber("later@example.com", confirmed=False)

    declare()

    notified = set(Delivery.objects.values_list("subscriber__email", flat=True))
    assert notified == {everything.email, webhooks_only.email}
    assert dashboard_only.email not in notified and unconfirmed.email not in notified


def test_drafts_and_quiet_updates_notify_nobody(make_subscriber, declare, responder):
    make_subscriber()
    draft = declare(publish=False)
    assert not Delivery.objects.exists()

    incident = declare("Public one")
    Delivery.objects.all().delete()
    post_update(
        incident,
        PostUpdate(status="identified", body={"en": "Quiet."}, language="en", notify=False),
        actor=responder,
    )
    assert not Delivery.objects.exists()
    assert draft.is_draft


def test_each_subscriber_gets_one_row_with_a_stable_idempotency_key(make_subscriber, declare):
    subscriber = make_subscriber()
    incident = declare()
    update = incident.updates.get()
    delivery = Delivery.objects.get()

    assert delivery.idempotency_key == f"{update.public_id}.{subscriber.public_id}"
    from incidents.services.notifications import enqueue_notifications

    enqueue_notifications(update)  # a second enqueue of the same update adds nothing
    assert Delivery.objects.count() == 1


def test_email_is_multipart_with_the_headers_mail_providers_expect(
    smtp_sink, https_site, make_subscriber, declare
):
    subscriber = make_subscriber()
    declare(body="Queue consumer **lagging**. <script>alert(1)</script>")

    report = outbox.deliver_due(seconds=30)

    assert report.sent == 1
    [message] = smtp_sink.messages
    key = Delivery.objects.get().idempotency_key
    assert message["Message-ID"] == f"<{key}@status.acme.example>"
    assert message["To"] == subscriber.email
    assert message["From"] == "Acme Status <status@acme.example>"
    assert message["Reply-To"] == "support@acme.example"
    assert message["Date"]
    # Folded before the long URL; a parser keeps the continuation's leading space.
    assert (
        message["List-Unsubscribe"].strip().startswith("<https://status.acme.example/subscribe/unsubscribe/")
    )
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message["Subject"] == "[Acme Status] Incident — Investigating: Delayed webhook deliveries"
    assert message.get_content_type() == "multipart/alternative"
    text = message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert "Queue consumer **lagging**" in text
    assert "<strong>lagging</strong>" in html and "<script>" not in html
    assert "Webhook delivery: Degraded performance" in text
    assert "https://status.acme.example/incidents/" in html
    assert "/subscribe/manage/" in text and "/subscribe/unsubscribe/" in html
    assert Delivery.objects.get().state == DeliveryState.SENT


def test_subscribers_read_their_language_with_fallback(
    smtp_sink, https_site, make_subscriber, declare, responder
):
    make_subscriber("nora@example.com", language="nb")
    make_subscriber("ivan@example.com", language="ru")
    incident = declare()
    Delivery.objects.all().delete()
    post_update(
        incident,
        PostUpdate(
            status="identified",
            language="en",
            body={"en": "A consumer is lagging.", "nb": "En konsument henger etter."},
        ),
        actor=responder,
    )

    outbox.deliver_due(seconds=30)

    by_recipient = {m["To"]: m for m in smtp_sink.messages}
    norwegian = by_recipient["nora@example.com"].get_body(("plain",)).get_content()
    russian = by_recipient["ivan@example.com"].get_body(("plain",)).get_content()
    assert "En konsument henger etter." in norwegian
    assert "A consumer is lagging." in russian  # no Russian text: falls back to the original
    assert "/ru/subscribe/unsubscribe/" in russian
    assert 'lang="ru"' in by_recipient["ivan@example.com"].get_body(("html",)).get_content()


def test_an_update_is_rendered_once_per_language(smtp_sink, make_subscriber, declare, monkeypatch):
    for n in range(6):
        make_subscriber(f"r{n}@example.com", language="en" if n % 2 else "es")
    calls = []
    real = email_channel.render_content
    monkeypatch.setattr(email_channel, "render_content", lambda u, lang: calls.append(lang) or real(u, lang))
    declare()

    outbox.deliver_due(seconds=30)

    assert len(smtp_sink.messages) == 6
    assert sorted(calls) == ["en", "es"]


def test_smtp_refusing_then_accepting_retries_with_backoff_and_no_duplicates(
    smtp_sink, make_subscriber, declare
):
    make_subscriber("a@example.com")
    make_subscriber("b@example.com")
    declare()
    smtp_sink.refuse_next = 2

    first = outbox.deliver_due(seconds=30)

    assert first.retried == 2 and not smtp_sink.messages
    rows = list(Delivery.objects.all())
    assert all(r.state == DeliveryState.PENDING and r.attempts == 1 for r in rows)
    assert all(r.next_attempt_at > timezone.now() for r in rows)
    assert all("451" in r.last_error for r in rows)
    assert outbox.deliver_due(seconds=30).sent == 0  # not due yet: backing off

    with later(minutes=5):
        second = outbox.deliver_due(seconds=30)
        outbox.deliver_due(seconds=30)

    assert second.sent == 2
    ids = smtp_sink.message_ids()
    assert len(ids) == len(set(ids)) == 2
    assert set(Delivery.objects.values_list("state", flat=True)) == {DeliveryState.SENT}


def test_a_permanent_refusal_fails_at_once(smtp_sink, make_subscriber, declare):
    make_subscriber("gone@example.com")
    declare()
    smtp_sink.refuse_next = 1
    smtp_sink.refusal = "550 5.1.1 No such user"

    outbox.deliver_due(seconds=30)

    delivery = Delivery.objects.get()
    assert delivery.state == DeliveryState.FAILED
    assert "550" in delivery.last_error


def test_retries_stop_at_the_budget(smtp_sink, settings, make_subscriber, declare):
    settings.NOTIFY_MAX_ATTEMPTS = 3
    make_subscriber()
    declare()
    smtp_sink.refuse_next = 100

    for minutes in (0, 10, 20, 30):
        with later(minutes=minutes):
            outbox.deliver_due(seconds=30)

    delivery = Delivery.objects.get()
    assert (delivery.state, delivery.attempts) == (DeliveryState.FAILED, 3)


def test_backoff_grows_exponentially_with_jitter_up_to_the_cap(settings):
    settings.NOTIFY_RETRY_BASE_SECONDS = 30
    settings.NOTIFY_RETRY_MAX_SECONDS = 600
    delays = {n: [outbox.retry_delay(n).total_seconds() for _ in range(50)] for n in (1, 2, 3, 10)}

    assert all(15 <= d <= 30 for d in delays[1])
    assert all(30 <= d <= 60 for d in delays[2])
    assert all(60 <= d <= 120 for d in delays[3])
    assert all(300 <= d <= 600 for d in delays[10])
    assert len(set(delays[3])) > 1


def test_a_worker_killed_mid_batch_leaves_nobody_missing(smtp_sink, settings, make_subscriber, declare):
    settings.NOTIFY_BATCH_SIZE = 40
    for n in range(100):
        make_subscriber(f"r{n}@example.com")
    declare()
    ids = outbox.claim(channel="email", size=40).ids
    batch = list(Delivery.objects.filter(pk__in=ids).select_related("update__incident", "subscriber"))
    results = email_channel.EmailChannel().send(batch)
    for _ in range(15):
        next(results)  # 15 mails leave, then the worker dies before recording anything
    results.close()

    outbox.deliver_due(seconds=30)  # another worker: leased rows are not touched
    assert Delivery.objects.filter(state=DeliveryState.SENDING).count() == 40
    assert notify.sweep()["released"] == 0  # the lease has not expired yet

    with later(minutes=settings.NOTIFY_LEASE_SECONDS / 60 + 1):
        assert notify.sweep()["released"] == 40
        outbox.deliver_due(seconds=30)

    received = smtp_sink.message_ids()
    keys = {f"<{k}@127.0.0.1>" for k in Delivery.objects.values_list("idempotency_key", flat=True)}
    assert set(received) == keys  # none missing
    assert len(received) - len(set(received)) == 15  # duplicates only from the crashed lease window
    assert set(Delivery.objects.values_list("state", flat=True)) == {DeliveryState.SENT}


def test_a_worker_back_after_its_lease_was_taken_over_sends_and_writes_nothing_of_those_rows(
    smtp_sink, settings, make_subscriber, declare
):
    """A node cut off from the database for longer than its lease: the sweep gave its rows to
    another worker, which sent them. The first node's batch, once it runs, must neither send
    them again nor hand them back, mark or fail them under the other worker's lease."""
    for n in range(5):
        make_subscriber(f"r{n}@example.com")
    declare()
    stale = outbox.claim(channel="email", size=5)
    with later(minutes=settings.NOTIFY_LEASE_SECONDS / 60 + 1):
        assert notify.sweep()["released"] == 5
        taken = outbox.claim(channel="email", size=5)
    assert sorted(taken.ids) == sorted(stale.ids)

    report = outbox.deliver_batch(stale)

    assert (report.sent, report.retried, report.failed) == (0, 0, 0)
    assert smtp_sink.messages == []
    assert Delivery.objects.filter(state=DeliveryState.SENDING, lease_until=taken.lease_until).count() == 5
    assert outbox.deliver_batch(taken).sent == 5
    assert len(smtp_sink.messages) == 5


def test_unsubscribing_after_publication_stops_the_mail(smtp_sink, make_subscriber, declare):
    from incidents.services.subscriptions import unsubscribe

    subscriber = make_subscriber()
    declare()
    unsubscribe(subscriber)

    outbox.deliver_due(seconds=30)

    assert not smtp_sink.messages


def test_non_ascii_subject_and_body_arrive_intact(smtp_sink, make_subscriber, declare):
    make_subscriber("ivan@example.com", language="ru")
    declare("Задержка доставки вебхуков", body="Потребитель очереди отстаёт — ~6 мин.", language="ru")

    outbox.deliver_due(seconds=30)

    [message] = smtp_sink.messages
    assert "Задержка доставки вебхуков" in message["Subject"]
    assert "Потребитель очереди отстаёт — ~6 мин." in message.get_body(("plain",)).get_content()
    assert "Потребитель очереди отстаёт" in message.get_body(("html",)).get_content()
    assert message["Content-Language"] == "ru"


def test_other_mail_backends_receive_the_same_message(make_subscriber, declare):
    from django.core import mail

    make_subscriber()
    declare()

    outbox.deliver_due(seconds=30)  # the tests' default backend keeps mail in memory

    [message] = mail.outbox
    assert message.extra_headers["Message-ID"] == f"<{Delivery.objects.get().idempotency_key}@127.0.0.1>"
    assert "List-Unsubscribe" in message.extra_headers
    assert message.alternatives[0].mimetype == "text/html"


def test_publishing_a_draft_notifies_its_newest_update(make_subscriber, declare, responder):

    subscriber = make_subscriber()
    draft = declare(publish=False)
    assert not Delivery.objects.exists()

    publish_incident(draft, actor=responder)
    publish_incident(draft, actor=responder)  # publishing twice sends nothing more

    delivery = Delivery.objects.get()
    assert (delivery.subscriber, delivery.update) == (subscriber, draft.updates.get())


def test_a_batch_slower_than_its_lease_hands_the_rest_back(
    smtp_sink, settings, make_subscriber, declare, monkeypatch
):
    settings.NOTIFY_LEASE_SECONDS = 2
    for n in range(5):
        make_subscriber(f"r{n}@example.com")
    declare()
    accept = smtp_sink.handle_DATA
    clock = types.SimpleNamespace(now=1000.0)
    # The batch's own clock, so the test does not depend on how fast this machine sends mail.
    monkeypatch.setattr(outbox, "time", types.SimpleNamespace(monotonic=lambda: clock.now))

    async def slow_server(*args):
        clock.now += 1.0  # a slow SMTP server: each mail takes a second
        return await accept(*args)

    smtp_sink.handle_DATA = slow_server
    claimed = outbox.claim(channel="email", size=5)

    report = outbox.deliver_batch(claimed)

    assert report.sent == 2  # the third would have started past three quarters of the lease
    untried = Delivery.objects.filter(state=DeliveryState.PENDING)
    assert untried.count() == 3
    assert {d.attempts for d in untried} == {0}
    assert len(smtp_sink.messages) == 2


def test_a_claim_answered_after_most_of_its_lease_sends_nothing_and_the_rows_go_out_once(
    smtp_sink, settings, make_subscriber, declare, monkeypatch
):
    """The database's answer to a claim can come late (a node cut off while its COMMIT was on
    the way): the lease then ran from before the answer, and the sweep may already give the rows
    to another worker. The late worker must not start sending them."""
    settings.NOTIFY_LEASE_SECONDS = 4
    for n in range(5):
        make_subscriber(f"r{n}@example.com")
    declare()
    clock = types.SimpleNamespace(now=1000.0)
    monkeypatch.setattr(outbox, "time", types.SimpleNamespace(monotonic=lambda: clock.now))
    late = outbox.claim(channel="email", size=5)
    clock.now += 3.5  # the answer arrived three and a half seconds after it was asked for

    report = outbox.deliver_batch(late)

    assert (report.sent, report.retried, report.failed) == (0, 0, 0)
    assert smtp_sink.messages == []
    handed_back = Delivery.objects.filter(state=DeliveryState.PENDING)
    assert handed_back.count() == 5 and {d.attempts for d in handed_back} == {0}
    assert outbox.deliver_due(seconds=30).sent == 5
    assert sorted(m["To"] for m in smtp_sink.messages) == [f"r{n}@example.com" for n in range(5)]


def test_the_mail_lane_sends_the_mail_and_leaves_webhooks_to_their_own_lane(
    mailoutbox, make_subscriber, make_webhook_subscriber, webhook_receiver, declare
):
    make_subscriber("reader@example.com")
    make_webhook_subscriber(webhook_receiver.url)
    declare()

    notify.dispatch(lane="mail")

    assert [m.to for m in mailoutbox] == [["reader@example.com"]]
    assert webhook_receiver.requests == []

    notify.dispatch(lane="posts")

    assert webhook_receiver.requests  # the incident and its component's change
    assert set(Delivery.objects.values_list("state", flat=True)) == {DeliveryState.SENT}
    assert len(mailoutbox) == 1
