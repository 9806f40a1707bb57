"""The channel each subscriber kind is notified through, for the outbox."""

from incidents.models import Channel

from . import slack, teams
from .chat_http import ChatPostChannel
from .chat_services import ChatServiceChannel
from .email import EmailChannel
from .sms import SmsChannel
from .webhook import WebhookChannel

CHANNELS = {
    Channel.EMAIL: EmailChannel(),
    Channel.WEBHOOK: WebhookChannel(),
    Channel.SLACK: ChatPostChannel(kind="slack", build=slack.message),
    Channel.TEAMS: ChatPostChannel(kind="teams", build=teams.card),
    Channel.APPRISE: ChatServiceChannel(),
    Channel.SMS: SmsChannel(),
}


def channel_for(name: str):
    return CHANNELS[Channel(name)]
