"""The unsubscribe link in every notification mail, found as mail software finds it.

A mail client reads `List-Unsubscribe` (RFC 2369) from the raw header: it unfolds the lines and
takes the URLs between angle brackets. An RFC 2047 encoded word (`=?utf-8?q?…?=`) hides the URL
from it, so the header must stay plain ASCII, folded only at whitespace. One-click unsubscribe
(RFC 8058) is promised only over https.
"""

import datetime as dt
import email
import email.policy
import re

import pytest
from django.utils import timezone

from incidents.channels import outbox
from incidents.channels.email import rendered_email
from incidents.channels.emails import NotificationMail
from incidents.lifecycle.commands import PostUpdate, ScheduleMaintenance
from incidents.lifecycle.edits import publish_incident
from incidents.lifecycle.opening import schedule_maintenance
from incidents.lifecycle.updates import post_update
from incidents.models import ComponentStatus, Delivery
from incidents.services.subscriptions import confirm_subscription, subscribe

pytestmark = pytest.mark.django_db


def raw_header(raw: bytes, name: str) -> str:
    """The header's field body as sent: unfolded, never decoded (what RFC 2369 readers see)."""
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii")
    unfolded = re.sub(r"\r\n(?=[ \t])", "", head)
    for line in unfolded.split("\r\n"):
        field, _, body = line.partition(":")
        if field.lower() == name.lower():
            return body.strip()
    raise AssertionError(f"no {name} header in:\n{head}")


def unsubscribe_urls(raw: bytes) -> list[str]:
    return re.findall(r"<([^<>\s]+)>", raw_header(raw, "List-Unsubscribe"))


def assert_readable_unsubscribe(raw: bytes, *, https: bool) -> str:
    head = raw.split(b"\r\n\r\n", 1)[0]
    assert head.isascii()
    assert max(len(line) for line in head.split(b"\r\n")) <= 998
    value = raw_header(raw, "List-Unsubscribe")
    assert "=?" not in value, value
    [url] = unsubscribe_urls(raw)
    assert url.startswith("https://" if https else "http://") and "/subscribe/unsubscribe/" in url
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert parsed.get_content_type() == "multipart/alternative"
    assert [part.get_content_type() for part in parsed.iter_parts()] == ["text/plain", "text/html"]
    if https:
        assert parsed["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    else:
        assert parsed["List-Unsubscribe-Post"] is None
    return url


def incident_update(declare, make_subscriber):
    make_subscriber("reader@example.com", language="ru")
    declare("Задержка доставки вебхуков", body="Очередь отстаёт.", language="ru")


def follow_of_one_incident(declare, make_subscriber):
    incident = declare(publish=False)
    confirm_subscription(
        subscribe(email="fan@example.com", language="en", incident=incident, send_mail=False).subscriber
    )

    publish_incident(incident, actor=None)
    Delivery.objects.exclude(subscriber__email="fan@example.com").delete()


def scheduled_maintenance(declare, make_subscriber, component, responder):
    make_subscriber("ops@example.com", language="nb")
    start = timezone.now() + dt.timedelta(days=2)
    schedule_maintenance(
        ScheduleMaintenance(
            title="Database upgrade",
            language="en",
            body="Planned.",
            component_statuses=dict.fromkeys([component], ComponentStatus.UNDER_MAINTENANCE),
            scheduled_for=start,
            scheduled_until=start + dt.timedelta(hours=1),
        ),
        actor=responder,
    )


def resolving_update(declare, make_subscriber, responder):
    make_subscriber("watcher@example.com", language="es")
    incident = declare()
    Delivery.objects.all().delete()
    post_update(
        incident, PostUpdate(status="resolved", body={"en": "Fixed."}, language="en"), actor=responder
    )


KINDS = {
    "incident update": lambda f: incident_update(f["declare"], f["make_subscriber"]),
    "follow of one incident": lambda f: follow_of_one_incident(f["declare"], f["make_subscriber"]),
    "scheduled maintenance": lambda f: scheduled_maintenance(
        f["declare"], f["make_subscriber"], f["component"], f["responder"]
    ),
    "resolution": lambda f: resolving_update(f["declare"], f["make_subscriber"], f["responder"]),
}


@pytest.fixture
def fixtures(declare, make_subscriber, component, responder):
    return {
        "declare": declare,
        "make_subscriber": make_subscriber,
        "component": component,
        "responder": responder,
    }


@pytest.mark.parametrize("https", [True, False], ids=["https", "http"])
@pytest.mark.parametrize("kind", KINDS)
def test_every_notification_sent_over_smtp_names_its_unsubscribe_url_in_plain_ascii(
    kind, https, fixtures, smtp_sink, settings
):
    settings.SITE_URL = "https://status.acme.example" if https else "http://127.0.0.1:8001"
    KINDS[kind](fixtures)

    report = outbox.deliver_due(seconds=30)

    assert report.sent >= 1 and len(smtp_sink.raw) == report.sent
    for raw in smtp_sink.raw:
        url = assert_readable_unsubscribe(raw, https=https)
        assert url.startswith(settings.SITE_URL)


@pytest.mark.parametrize("https", [True, False], ids=["https", "http"])
@pytest.mark.parametrize("kind", KINDS)
def test_mail_written_by_other_backends_keeps_the_same_readable_header(kind, https, fixtures, settings):
    """The development mail folder, the console and any non-SMTP backend serialise Django's
    message, whose own folding would encode a long URL."""
    settings.SITE_URL = "https://status.acme.example" if https else "http://127.0.0.1:8001"
    KINDS[kind](fixtures)

    for delivery in Delivery.objects.select_related("subscriber", "update"):
        mail = NotificationMail(
            rendered_email(delivery),
            to=delivery.subscriber.email,
            message_key=delivery.idempotency_key,
            manage_url=f"{settings.SITE_URL}/subscribe/manage/t/",
            unsubscribe_url=f"{settings.SITE_URL}/subscribe/unsubscribe/{'x' * 120}/",
            follow_url=f"{settings.SITE_URL}/subscribe/follow/f/",
        )
        for policy in (email.policy.default, email.policy.SMTP):
            # As Django's file, console and SMTP backends write it: with the message's own policy.
            raw = mail.message(policy=policy).as_bytes()
            assert_readable_unsubscribe(raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"), https=https)
