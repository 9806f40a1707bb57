"""Subscribing, confirming (double opt-in), changing preferences and unsubscribing.

Links in emails carry signed tokens (django.core.signing) naming the subscriber and its
`token_key`: nothing secret is stored that could be read back into a working link, and rotating
the key revokes every link already sent. Confirmation tokens expire; manage and unsubscribe
tokens do not, because RFC 8058 one-click unsubscribe must keep working in old mail.

Whoever subscribes a target proves they can read it: an email or webhook subscription by the
link mailed to its address, a chat channel by the link posted to the channel itself, a phone
number by the code texted to it (a number is never confirmed by a link).
"""

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from incidents.channels.emails import subscription_mail
from incidents.channels.links import (
    confirmation_token,
    is_right_code,
    manage_url,
    sms_code,
    subscription_url,
)
from incidents.channels.registry import check_target, send_notice
from incidents.models import Channel, Component, Delivery, DeliveryState, Incident, Subscriber
from incidents.models.subscribers import new_webhook_secret
from incidents.outbound.guard import check_url
from incidents.security.address_variants import inbox_key
from incidents.translation import validate_language

logger = logging.getLogger(__name__)


def check_no_line_breaks(value: str) -> None:
    # Header injection: an address ends up in To:, so CR or LF must never get through.
    if "\r" in value or "\n" in value:
        raise ValidationError(_("Line breaks are not allowed here."), code="line_break")


def check_endpoint(value: str) -> None:
    check_no_line_breaks(value)
    check_url(value)


def check_email(value: str) -> None:
    check_no_line_breaks(value)
    if len(value) > 254:
        raise ValidationError(_("An email address has at most 254 characters."), code="too_long")
    validate_email(value)
    # Django accepts `name@localhost` and `name@[127.0.0.1]`: neither reaches a subscriber.
    domain = value.rpartition("@")[2]
    if "." not in domain or domain.startswith("["):
        raise ValidationError(
            _("Enter an address with a full domain name, like name@example.com."), code="domain"
        )


def channel_of(*, channel: str, endpoint_url: str) -> Channel:
    """The channel asked for; without one, webhook when there is an endpoint URL, else email."""
    if channel:
        return Channel(channel)
    return Channel.WEBHOOK if endpoint_url else Channel.EMAIL


@dataclass(frozen=True)
class SubscribeResult:
    subscriber: Subscriber


@transaction.atomic
def subscribe(
    *,
    email: str,
    language: str,
    components: Iterable[Component] | None = None,
    incident: Incident | None = None,
    endpoint_url: str = "",
    channel: str = "",
    target: str = "",
    send_mail: bool = True,
) -> SubscribeResult:
    """Records an unconfirmed subscription and mails the confirmation link after commit.

    The caller answers the same whatever happens here, so nobody learns who is subscribed.
    A confirmed subscriber's preferences are never changed from the public form: it is sent
    a link to manage them instead (a number is sent nothing). `send_mail=False` (an admin
    subscribing someone and confirming at once) sends neither.

    Chat and SMS subscribers are reached at `target`, which also receives the confirmation link
    (chat) or code (SMS); an `email` given with them is only kept as a contact.
    """
    email = email.strip()
    channel = channel_of(channel=channel, endpoint_url=endpoint_url)
    if email or not channel.uses_target:
        check_email(email)
    validate_language(language)
    if endpoint_url:
        check_endpoint(endpoint_url)
    target = check_target(channel, target) if channel.uses_target else ""
    components = list(components or [])
    subscriber = subscription_of(
        channel=channel, email=email, endpoint_url=endpoint_url, target=target, incident=incident
    )
    if subscriber is not None and subscriber.is_active:
        if send_mail:
            transaction.on_commit(lambda: send_manage_link(subscriber))
        return SubscribeResult(subscriber)
    if subscriber is None:
        subscriber = Subscriber(
            channel=channel,
            email=email,
            email_key=inbox_key(email) if email else "",
            endpoint_url=endpoint_url,
            target=target,
            incident=incident,
        )
    subscriber.language = language
    subscriber.all_components = not components
    subscriber.confirmed_at = None
    subscriber.unsubscribed_at = None
    subscriber.follow_ended_at = None
    try:
        with transaction.atomic():
            subscriber.save()
    except IntegrityError:
        # Two requests for the same address at once: the other one recorded it.
        existing = subscription_of(
            channel=channel, email=email, endpoint_url=endpoint_url, target=target, incident=incident
        )
        return SubscribeResult(existing)
    subscriber.components.set(components)
    if send_mail:
        transaction.on_commit(lambda: send_confirmation(subscriber))
    return SubscribeResult(subscriber)


def subscription_of(
    *, channel: Channel, email: str, endpoint_url: str, target: str, incident: Incident | None
) -> Subscriber | None:
    """The subscription these would make, locked: the same inbox whatever variant of its
    address is given; for a chat channel or a number, whatever contact is given with it."""
    found = Subscriber.objects.select_for_update().filter(
        channel=channel, endpoint_url=endpoint_url, target=target, incident=incident
    )
    if not channel.uses_target:
        # Rows written around the service (the Django admin) have no key: their address is compared.
        found = found.filter(Q(email_key=inbox_key(email)) | Q(email__iexact=email))
    return found.order_by("created_at", "pk").first()


@transaction.atomic
def confirm_subscription(subscriber: Subscriber) -> Subscriber:
    """Double opt-in: from now on the subscriber is notified. Confirming twice changes nothing."""
    locked = Subscriber.objects.select_for_update().get(pk=subscriber.pk)
    if locked.confirmed_at is None or locked.unsubscribed_at is not None:
        locked.confirmed_at = timezone.now()
        locked.unsubscribed_at = None
        locked.save(update_fields=["confirmed_at", "unsubscribed_at"])
    return locked


@transaction.atomic
def follow_from_mail(subscriber: Subscriber, *, incident: Incident) -> Subscriber:
    """The subscriber's address follows `incident` until it resolves, confirmed at once: the
    signed link of a mail sent to that address is the proof. Following twice changes nothing."""
    follow = subscription_of(
        channel=Channel.EMAIL, email=subscriber.email, endpoint_url="", target="", incident=incident
    )
    if follow is None:
        follow = Subscriber(
            channel=Channel.EMAIL,
            email=subscriber.email,
            email_key=inbox_key(subscriber.email),
            language=subscriber.language,
            incident=incident,
        )
    if follow.is_active:
        return follow
    follow.confirmed_at = timezone.now()
    follow.unsubscribed_at = None
    follow.follow_ended_at = None
    try:
        with transaction.atomic():
            follow.save()
    except IntegrityError:
        # Two clicks at once: the other one recorded it.
        return subscription_of(
            channel=Channel.EMAIL, email=subscriber.email, endpoint_url="", target="", incident=incident
        )
    return follow


@dataclass(frozen=True)
class Confirmation:
    subscriber: Subscriber
    # Only for the request that confirmed a webhook subscription: the secret is shown once.
    webhook_secret: str = ""


@transaction.atomic
def confirm_by_link(subscriber: Subscriber) -> Confirmation:
    """The subscriber's own confirmation. A webhook gets a fresh signing secret, returned only
    by the call that confirmed: following the link again shows no secret."""
    locked = Subscriber.objects.select_for_update().get(pk=subscriber.pk)
    if locked.confirmed_at is not None and locked.unsubscribed_at is None:
        return Confirmation(locked)
    locked.confirmed_at = timezone.now()
    locked.unsubscribed_at = None
    if locked.channel == Channel.WEBHOOK:
        locked.webhook_secret = new_webhook_secret()
    locked.save(update_fields=["confirmed_at", "unsubscribed_at", "webhook_secret"])
    secret = locked.webhook_secret if locked.channel == Channel.WEBHOOK else ""
    return Confirmation(locked, webhook_secret=secret)


@transaction.atomic
def update_preferences(
    subscriber: Subscriber, *, language: str, components: Iterable[Component] | None
) -> Subscriber:
    """Changes the language and the components (none chosen means all of them)."""
    validate_language(language)
    components = list(components or [])
    subscriber.language = language
    subscriber.all_components = not components
    subscriber.save(update_fields=["language", "all_components"])
    subscriber.components.set(components)
    return subscriber


@transaction.atomic
def unsubscribe(subscriber: Subscriber) -> bool:
    """Stops every notification to the subscriber; False if it was already unsubscribed."""
    changed = Subscriber.objects.filter(pk=subscriber.pk, unsubscribed_at__isnull=True).update(
        unsubscribed_at=timezone.now()
    )
    # Nothing already written to the outbox goes out after an unsubscribe.
    Delivery.objects.filter(subscriber_id=subscriber.pk, state=DeliveryState.PENDING).delete()
    subscriber.refresh_from_db()
    return bool(changed)


@transaction.atomic
def confirm_by_code(subscriber: Subscriber, *, code: str) -> Subscriber | None:
    """Confirms a number with the code texted to it; None when the code is wrong."""
    if not is_right_code(subscriber, code):
        return None
    return confirm_subscription(subscriber)


# --- Messages about the subscription itself (sent right after commit, not through the outbox) ---


def send_confirmation(subscriber: Subscriber) -> None:
    """The confirmation link to the address (email, webhook) or the chat channel; the code to a number."""
    channel = Channel(subscriber.channel)
    if channel == Channel.SMS:
        with translation.override(subscriber.language):
            text = _("%(page)s: your confirmation code is %(code)s.") % {
                "page": settings.STATUS_PAGE_NAME,
                "code": sms_code(subscriber),
            }
        _send_quietly("confirmation code", subscriber, lambda: _notice(subscriber, "", text, ""))
        return
    confirm_url = subscription_url("confirm", subscriber, confirmation_token(subscriber))
    if channel.uses_target:
        with translation.override(subscriber.language):
            title = _("Confirm your subscription")
            text = _(
                "Someone asked for the status updates of %(page)s to be posted here. Nothing more "
                "is posted unless someone in this channel confirms with the link below."
            ) % {"page": settings.STATUS_PAGE_NAME}
        _send_quietly("confirmation", subscriber, lambda: _notice(subscriber, title, text, confirm_url))
        return
    message = subscription_mail("confirm_subscription", subscriber, confirm_url=confirm_url)
    _send_quietly("confirm_subscription mail", subscriber, message.send)


def send_manage_link(subscriber: Subscriber) -> None:
    """The link to manage an address or chat channel that is already subscribed (a number, whose
    texts cost money, is sent nothing)."""
    channel = Channel(subscriber.channel)
    if channel == Channel.SMS:
        return
    if channel.uses_target:
        with translation.override(subscriber.language):
            title = _("Manage subscription")
            text = _("This channel already receives the status updates of %(page)s.") % {
                "page": settings.STATUS_PAGE_NAME
            }
        link = manage_url(subscriber)
        _send_quietly("manage link", subscriber, lambda: _notice(subscriber, title, text, link))
        return
    message = subscription_mail("manage_subscription", subscriber, manage_url=manage_url(subscriber))
    _send_quietly("manage_subscription mail", subscriber, message.send)


def _notice(subscriber: Subscriber, title: str, text: str, link: str) -> None:
    error = send_notice(
        subscriber.channel,
        subscriber.target,
        title=title,
        text=text,
        link=link,
        event_id=f"subscription.{subscriber.public_id}",
    )
    if error:
        raise RuntimeError(error)


def _send_quietly(name: str, subscriber: Subscriber, send) -> None:
    try:
        send()
    except Exception:  # the form already answered; the person can ask again
        logger.warning("Could not send the %s to subscriber %s", name, subscriber.public_id, exc_info=True)
