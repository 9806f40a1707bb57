"""The subscribe page's chat and SMS sections: one form per channel, each with the channel's
target (a Slack or Teams webhook URL, an Apprise URL or a phone number) checked by the channel's
own module. The target itself receives the confirmation: a link posted to the chat channel, a
code texted to the number (offered only when PUBLIC_SMS_SUBSCRIPTIONS is on)."""

import copy

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from incidents.channels.registry import check_target
from incidents.models import Channel

from .subscriptions import PreferencesForm

# Per channel: the target's label, its help text and its input widget; the subscribe page
# section's tab label, what it does and its button.
CHAT_FIELDS = {
    Channel.SLACK: (
        _("Slack incoming webhook URL"),
        _(
            "Create an incoming webhook for the channel in Slack (Apps → Incoming Webhooks) and paste its URL."
        ),
        forms.URLInput(attrs={"autocomplete": "off", "placeholder": "https://hooks.slack.com/services/…"}),
        _("Slack"),
        _("We post each update to a Slack channel: its status, impact, affected components and a link."),
        _("Subscribe a Slack channel"),
    ),
    Channel.TEAMS: (
        _("Microsoft Teams webhook URL"),
        _(
            "In Teams, add the “Post to a channel when a webhook request is received” workflow and paste its URL."
        ),
        forms.URLInput(attrs={"autocomplete": "off", "placeholder": "https://"}),
        _("Microsoft Teams"),
        _(
            "We post each update to a Teams channel as a card: its status, impact, affected components and a link."
        ),
        _("Subscribe a Teams channel"),
    ),
    Channel.APPRISE: (
        _("Apprise URL"),
        _(
            "Discord (discord://webhook_id/token), Telegram (tgram://bot_token/chat_id), Matrix "
            "(matrixs://token@host/#room) or Mattermost (mmosts://host/token)."
        ),
        forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false", "placeholder": "discord://"}),
        _("Other chat"),
        _(
            "Discord, Telegram, Matrix or Mattermost: give the room as an Apprise URL and we post each update there."
        ),
        _("Subscribe a chat room"),
    ),
    Channel.SMS: (
        _("Mobile phone number"),
        _(
            "In international format with the country code, like +47 123 45 678. Messages are short: the title, the status and a link."
        ),
        forms.TextInput(attrs={"autocomplete": "tel", "inputmode": "tel", "placeholder": "+"}),
        _("SMS"),
        _("A short text message for each update: the title, the status and a link."),
        _("Subscribe a phone number"),
    ),
}


class ChatSubscribeForm(PreferencesForm):
    """A chat or SMS subscription, confirmed by a message to the target itself."""

    target = forms.CharField(max_length=2000, strip=False)

    field_order = ["target", "language", "components"]

    def __init__(self, *args, channel: Channel, **kwargs):
        super().__init__(*args, **kwargs)
        self.channel = Channel(channel)
        label, help_text, widget, *_section = CHAT_FIELDS[self.channel]
        target = self.fields["target"]
        target.label, target.help_text, target.widget = label, help_text, copy.deepcopy(widget)
        target.widget.is_required = True

    def clean_target(self):
        try:
            return check_target(self.channel, self.cleaned_data["target"])
        except ValidationError as error:
            raise ValidationError(error.messages) from None


def chat_channels() -> list[Channel]:
    """The chat and SMS channels the subscribe page offers (SMS only with a gateway set and
    public SMS subscriptions switched on: otherwise admins add numbers)."""
    public_sms = settings.SMS_APPRISE_URL and settings.PUBLIC_SMS_SUBSCRIPTIONS
    return [channel for channel in CHAT_FIELDS if channel != Channel.SMS or public_sms]


CHAT_CONFIRMATION = _(
    "We post a confirmation link to the channel itself; nothing else is posted before someone there follows it."
)
SMS_CONFIRMATION = _(
    "We text a code to the number; nothing else is sent before you enter it on the next page."
)


def chat_sections(*, language: str, bound: dict) -> list[dict]:
    """The subscribe page's chat sections, each with its form (the one posted, when it was)."""
    sections = []
    for channel in chat_channels():
        *_field, label, intro, button = CHAT_FIELDS[channel]
        form = bound.get(f"{channel}_form") or ChatSubscribeForm(
            initial={"language": language}, auto_id=f"{channel}-%s", channel=channel
        )
        sections.append(
            {
                "id": str(channel),
                "label": label,
                "template": "subscribe/_chat_section.html",
                "intro": intro,
                "confirmation": SMS_CONFIRMATION if channel == Channel.SMS else CHAT_CONFIRMATION,
                "button": button,
                "form": form,
            }
        )
    return sections


class SmsCodeForm(forms.Form):
    """The code texted to a number, entered on the page shown after subscribing it."""

    code = forms.CharField(
        label=_("Code from the text message"),
        max_length=12,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
    )
