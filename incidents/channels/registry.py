"""The channel each subscriber kind is notified through, for the outbox."""

from incidents.models import Channel

from .apprise_chat import AppriseChannel
from .email import EmailChannel
from .slack import SlackChannel
from .sms import SmsChannel
from .teams import TeamsChannel
from .webhook import WebhookChannel

CHANNELS = {
    Channel.EMAIL: EmailChannel(),
    Channel.WEBHOOK: WebhookChannel(),
    Channel.SLACK: SlackChannel(),
    Channel.TEAMS: TeamsChannel(),
    Channel.APPRISE: AppriseChannel(),
    Channel.SMS: SmsChannel(),
}


def channel_for(name: str):
    return CHANNELS[Channel(name)]
