"""Signed links to a subscriber's own pages (confirmation, management, follow, code entry) and
the tokens in them. Channels write these links into messages and services check them, so this
module imports only models and settings."""

from functools import lru_cache, partial

from django.conf import settings
from django.core import signing
from django.urls import get_urlconf, reverse
from django.utils import translation
from django.utils.crypto import constant_time_compare, salted_hmac

from incidents.models import Channel, Incident, Subscriber

CONFIRM_SALT = "incidents.subscriptions.confirm"
MANAGE_SALT = "incidents.subscriptions.manage"
CODE_SALT = "incidents.subscriptions.sms-code"
FOLLOW_SALT = "incidents.subscriptions.follow"
CODE_DIGITS = 6


def _token(salt: str, subscriber: Subscriber) -> str:
    return signing.dumps([subscriber.public_id, subscriber.token_key], salt=salt)


confirmation_token = partial(_token, CONFIRM_SALT)
manage_token = partial(_token, MANAGE_SALT)
# Names the number on the page where its code is entered; the code itself is not in it.
code_token = partial(_token, CODE_SALT)


def manage_url(subscriber: Subscriber) -> str:
    return subscription_url("manage", subscriber, manage_token(subscriber))


def follow_token(subscriber: Subscriber, incident: Incident) -> str:
    """Names the subscriber and an incident: the "Follow the incident" link of an update's mail."""
    return signing.dumps([subscriber.public_id, subscriber.token_key, incident.public_id], salt=FOLLOW_SALT)


def follow_for_link(token: str) -> tuple[Subscriber, Incident] | None:
    """The email subscriber and the published incident a follow link names, or None."""
    try:
        public_id, token_key, incident_id = signing.loads(token, salt=FOLLOW_SALT)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    subscriber = Subscriber.objects.filter(
        public_id=public_id, token_key=token_key, channel=Channel.EMAIL
    ).first()
    incident = Incident.objects.published().filter(public_id=incident_id).first()
    return (subscriber, incident) if subscriber and incident else None


def subscriber_for_confirmation(token: str) -> Subscriber | None:
    subscriber = _subscriber_for(token, salt=CONFIRM_SALT, max_age=settings.SUBSCRIBE_CONFIRM_MAX_AGE_SECONDS)
    # A phone number is confirmed by the code texted to it, never by a link.
    return None if subscriber is not None and subscriber.channel == Channel.SMS else subscriber


def subscriber_for_code(token: str) -> Subscriber | None:
    subscriber = _subscriber_for(token, salt=CODE_SALT, max_age=settings.SUBSCRIBE_CONFIRM_MAX_AGE_SECONDS)
    return subscriber if subscriber is not None and subscriber.channel == Channel.SMS else None


def sms_code(subscriber: Subscriber) -> str:
    """The code texted to the number: derived with the secret key, so nothing is stored, and
    rotating the subscriber's token key changes it."""
    digest = salted_hmac(
        CODE_SALT, f"{subscriber.public_id}:{subscriber.token_key}", algorithm="sha256"
    ).hexdigest()
    return f"{int(digest, 16) % 10**CODE_DIGITS:0{CODE_DIGITS}d}"


def is_right_code(subscriber: Subscriber, code: str) -> bool:
    return constant_time_compare("".join(code.split()), sms_code(subscriber))


def subscriber_for_management(token: str) -> Subscriber | None:
    return _subscriber_for(token, salt=MANAGE_SALT, max_age=None)


def _subscriber_for(token: str, *, salt: str, max_age: int | None) -> Subscriber | None:
    try:
        public_id, token_key = signing.loads(token, salt=salt, max_age=max_age)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    return Subscriber.objects.filter(public_id=public_id, token_key=token_key).first()


TOKEN_PLACEHOLDER = "0TOKEN0"


@lru_cache(maxsize=64)
def _path_template(name: str, language: str, urlconf: str | None) -> str:
    with translation.override(language):
        return reverse(f"subscribe:{name}", kwargs={"token": TOKEN_PLACEHOLDER}, urlconf=urlconf)


def subscription_url(name: str, subscriber: Subscriber, token: str) -> str:
    # Reversing costs more than the rest of a personalised mail, so the path is reversed once
    # per language; signed tokens use only characters that reverse() leaves unquoted.
    path = _path_template(name, subscriber.language, get_urlconf() or settings.ROOT_URLCONF)
    return settings.SITE_URL + path.replace(TOKEN_PLACEHOLDER, token)
