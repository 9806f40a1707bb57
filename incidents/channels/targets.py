"""Targets of chat and SMS subscribers: each channel module checks its own format
(`check_target`) and says how it is read back (`shown_target`: masked where it is a credential).

Kept apart from the registry because the subscription services use it, and the registry's email
channel uses them.
"""

from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import Channel

from . import chat_services, slack, sms, teams

MODULES = {Channel.SLACK: slack, Channel.TEAMS: teams, Channel.APPRISE: chat_services, Channel.SMS: sms}


def check_target(channel: str, value: str) -> str:
    """The target in the form it is stored in; raises ValidationError naming what is wrong."""
    if "\r" in value or "\n" in value:
        raise ValidationError(_("Line breaks are not allowed here."))
    return MODULES[Channel(channel)].check_target(value)


def shown_target(channel: str, value: str) -> str:
    return MODULES[Channel(channel)].shown_target(value) if value else ""


def reached_host(channel: str, value: str) -> str:
    """The host a target's messages go to (a service's fixed host for Discord and Telegram);
    empty for a phone number."""
    channel = Channel(channel)
    if channel == Channel.SMS:
        return ""
    if channel == Channel.APPRISE:
        return chat_services.reached_host(value)
    return urlsplit(value).hostname or ""
