"""Notification channels, one module each, and the registry the outbox sends through.

A channel has `send(deliveries)`, which yields a `Result` per delivery as soon as it is known,
and `batch_size_setting`, the setting naming how many rows a worker claims for it at once.
"""

from incidents.models import Channel

from .email import EmailChannel
from .webhook import WebhookChannel

CHANNELS = {
    Channel.EMAIL: EmailChannel(),
    Channel.WEBHOOK: WebhookChannel(),
}


def channel_for(name: str):
    return CHANNELS[Channel(name)]
