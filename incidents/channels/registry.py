"""The channel each subscriber kind is notified through, for the outbox."""

from incidents.models import Channel

from . import slack, teams
from .apprise_chat import AppriseChannel
from .chat_http import ChatPostChannel
from .email import EmailChannel
from .sms import SmsChannel
from .webhook import WebhookChannel

CHANNELS = {
    Channel.EMAIL: EmailChannel(),
    Channel.WEBHOOK: WebhookChannel(),
    Channel.SLACK: ChatPostChannel(kind="slack", build=slack.message),
    Channel.TEAMS: ChatPostChannel(kind="teams", build=teams.card),
    Channel.APPRISE: AppriseChannel(),
    Channel.SMS: SmsChannel(),
}


def channel_for(name: str):
    return CHANNELS[Channel(name)]
