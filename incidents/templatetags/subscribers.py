"""How a subscriber's own pages (confirm, manage, unsubscribe) name where its updates go."""

from django import template

from incidents.channels.registry import shown_target
from incidents.models import Channel

register = template.Library()


@register.filter
def reached_at(subscriber) -> str:
    """The address of an email or webhook subscriber; for chat and SMS, the service and its
    target, masked where the target is a credential (a Slack or Teams webhook URL)."""
    channel = Channel(subscriber.channel)
    if not channel.uses_target:
        return subscriber.address
    return f"{channel.label}: {shown_target(channel, subscriber.target)}"
