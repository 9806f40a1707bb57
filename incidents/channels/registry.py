"""The channel each subscriber kind is notified through, for the outbox."""

from incidents.models import Channel

from . import slack, teams
from .base import Transport
from .chat_http import ChatPostChannel
from .chat_services import ChatServiceChannel
from .email import EmailChannel
from .sms import SmsChannel
from .webhook import WebhookChannel

CHANNELS: dict[Channel, Transport] = {
    Channel.EMAIL: EmailChannel(),
    Channel.WEBHOOK: WebhookChannel(),
    Channel.SLACK: ChatPostChannel(kind="slack", build=slack.message),
    Channel.TEAMS: ChatPostChannel(kind="teams", build=teams.card),
    Channel.APPRISE: ChatServiceChannel(),
    Channel.SMS: SmsChannel(),
}


def channel_for(name: str) -> Transport:
    return CHANNELS[Channel(name)]
