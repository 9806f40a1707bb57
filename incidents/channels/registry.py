"""Each subscriber kind's channel: the transport the outbox sends through and, for chat and SMS
subscribers, the module that checks, shows and sends a notice to their target."""

from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import Channel

from . import chat_services, slack, sms, teams
from .base import OneAtATime, Transport
from .email import EmailChannel
from .http_posts import ChatPostChannel
from .webhook import WebhookChannel

CHANNELS: dict[Channel, Transport] = {
    Channel.EMAIL: EmailChannel(),
    Channel.WEBHOOK: WebhookChannel(),
    Channel.SLACK: ChatPostChannel(kind="slack", build=slack.message),
    Channel.TEAMS: ChatPostChannel(kind="teams", build=teams.card),
    Channel.APPRISE: OneAtATime(chat_services.send_delivery),
    Channel.SMS: OneAtATime(sms.send_delivery),
}
# Each lane is a dispatch task of its own, so mail never waits behind webhook and chat posts.
DISPATCH_LANES: dict[str, tuple[Channel, ...]] = {
    "mail": (Channel.EMAIL,),
    "posts": tuple(channel for channel in CHANNELS if channel != Channel.EMAIL),
}
TARGETS = {Channel.SLACK: slack, Channel.TEAMS: teams, Channel.APPRISE: chat_services, Channel.SMS: sms}


def check_target(channel: str, value: str) -> str:
    """The target in the form it is stored in; raises ValidationError naming what is wrong."""
    if "\r" in value or "\n" in value:
        raise ValidationError(_("Line breaks are not allowed here."))
    return TARGETS[Channel(channel)].check_target(value)


def shown_target(channel: str, value: str) -> str:
    return TARGETS[Channel(channel)].shown_target(value) if value else ""


def reached_host(channel: str, value: str) -> str:
    """The host a target's messages go to (a service's own API for Discord and Telegram); empty
    for a phone number."""
    if channel == Channel.SMS:
        return ""
    if channel == Channel.APPRISE:
        return chat_services.reached_host(value)
    return urlsplit(value).hostname or ""


def send_notice(channel: str, target: str, *, title: str, text: str, link: str, event_id: str) -> str:
    """Posts one message with `link` (may be empty) straight to the target, not through the
    outbox; the error, or "" when the service accepted it. Only whoever reads the channel or the
    phone can follow it, which is what proves the subscription theirs."""
    return TARGETS[Channel(channel)].notice(target, title=title, text=text, link=link, event_id=event_id)
