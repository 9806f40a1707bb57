"""The channel each subscriber kind is notified through, for the outbox."""

from incidents.models import Channel

from .email import EmailChannel
from .webhook import WebhookChannel

CHANNELS = {
    Channel.EMAIL: EmailChannel(),
    Channel.WEBHOOK: WebhookChannel(),
}


def channel_for(name: str):
    return CHANNELS[Channel(name)]
