"""Subscribers managed by staff (the REST API): the public services plus an audit trail.

Subscribing goes through `subscriptions.subscribe`, so double opt-in holds: the person gets
the confirmation link unless an admin subscribes them already confirmed (email only: a webhook's
signing secret is shown on its confirmation page, so a webhook must be confirmed by its contact).
Chat and SMS subscribers an admin adds are confirmed at once: there is nobody to mail.
Audit labels name the subscriber by its public id, never its address: viewers read the trail.
"""

from collections.abc import Callable, Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from incidents.models import Channel, Component, Incident, Subject, Subscriber

from .audit import changed_fields, record_event
from .subscriptions import channel_of, confirm_subscription, subscribe, subscription_of, update_preferences


def _record(subscriber: Subscriber, action: str, *, actor: AbstractBaseUser | None, **changes) -> None:
    record_event(
        actor=actor,
        action=action,
        subject_type=Subject.SUBSCRIBER,
        subject_id=subscriber.public_id,
        subject_label=f"{subscriber.channel} subscriber {subscriber.public_id}",
        **changes,
    )


def _preferences(subscriber: Subscriber) -> dict:
    components = sorted(subscriber.components.values_list("public_id", flat=True))
    return {"language": subscriber.language, "components": components or "all"}


@transaction.atomic
def add_subscriber(
    *,
    language: str,
    actor: AbstractBaseUser | None,
    email: str = "",
    components: Iterable[Component] | None = None,
    incident: Incident | None = None,
    endpoint_url: str = "",
    channel: str = "",
    target: str = "",
    confirmed: bool = False,
) -> Subscriber:
    """Subscribes someone on their behalf; mails the confirmation link unless `confirmed`
    (chat and SMS subscribers are always confirmed at once)."""
    channel = channel_of(channel=channel, endpoint_url=endpoint_url)
    confirmed = confirmed or channel.uses_target
    if confirmed and channel == Channel.WEBHOOK:
        raise ValidationError(
            {
                "confirmed": _(
                    "A webhook subscription is confirmed by its contact, who is shown the signing secret."
                )
            }
        )
    field = "target" if channel.uses_target else "email"
    existing = subscription_of(
        channel=channel, email=email.strip(), endpoint_url=endpoint_url, target=target, incident=incident
    )
    if existing is not None and existing.is_active:
        raise ValidationError({field: _("This address is already subscribed.")})
    result = subscribe(
        email=email,
        language=language,
        components=components,
        incident=incident,
        endpoint_url=endpoint_url,
        channel=channel,
        target=target,
        send_mail=not confirmed,
    )
    subscriber = result.subscriber
    if confirmed:
        subscriber = confirm_subscription(subscriber)
    after = {**_preferences(subscriber), "confirmed": subscriber.confirmed_at is not None}
    _record(subscriber, "subscriber.created", actor=actor, after=after)
    return subscriber


def _locked(subscriber: Subscriber, check: Callable[[Subscriber], None] | None) -> Subscriber:
    subscriber = Subscriber.objects.select_for_update().get(pk=subscriber.pk)
    if check is not None:
        check(subscriber)
    return subscriber


@transaction.atomic
def change_subscriber(
    subscriber: Subscriber,
    *,
    actor: AbstractBaseUser | None,
    language: str | None = None,
    components: Iterable[Component] | None = None,
    check: Callable[[Subscriber], None] | None = None,
) -> Subscriber:
    """Changes the language and/or the components (an empty list means all of them). `check`
    (the API's If-Match) sees the subscriber under its row lock first."""
    subscriber = _locked(subscriber, check)
    before = _preferences(subscriber)
    if components is None:
        components = [] if subscriber.all_components else list(subscriber.components.all())
    subscriber = update_preferences(
        subscriber, language=language or subscriber.language, components=components
    )
    old, new = changed_fields(before, _preferences(subscriber))
    if old or new:
        _record(subscriber, "subscriber.changed", actor=actor, before=old, after=new)
    return subscriber


@transaction.atomic
def delete_subscriber(
    subscriber: Subscriber,
    *,
    actor: AbstractBaseUser | None,
    check: Callable[[Subscriber], None] | None = None,
) -> None:
    """Forgets the subscriber (its address and its pending deliveries)."""
    subscriber = _locked(subscriber, check)
    _record(subscriber, "subscriber.deleted", actor=actor, before=_preferences(subscriber))
    subscriber.delete()
