"""SMS through the provider the operator configured as an Apprise URL (SMS_APPRISE_URL, with
`{number}` where the subscriber's number goes, e.g. `twilio://SID:Token@+15551234567/{number}`).

The target is a phone number in E.164 form. A message is one short text: the incident's title,
its status and the link. A segment holds 160 characters of the GSM 03.38 alphabet, or 70 of
anything else (UCS-2), and a longer text is split into parts of 153 or 67; the text is made to
fit SMS_MAX_SEGMENTS parts by shortening the title, never the link.
"""

import re
from collections.abc import Iterator
from urllib.parse import quote

import apprise
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext as _

from incidents.models import Delivery

from .apprise_chat import send_through_apprise
from .base import Result
from .chat_content import ChatContent, chat_content

E164 = re.compile(r"\+[1-9]\d{6,14}")
SEPARATORS = re.compile(r"[\s\-.()/]")
GSM_BASIC = set(
    "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§"
    "¿abcdefghijklmnopqrstuvwxyzäöñüà"
)
GSM_EXTENDED = set("^{}\\[~]|€")  # each takes two septets


def check_target(value: str) -> str:
    """The number in E.164 form (+4712345678); raises ValidationError."""
    number = SEPARATORS.sub("", value.strip())
    if number.startswith("00"):
        number = "+" + number[2:]
    if not E164.fullmatch(number):
        raise ValidationError(
            _("Enter the phone number in international format with its country code, like +4712345678.")
        )
    if not settings.SMS_APPRISE_URL:
        raise ValidationError(_("This status page does not send SMS."))
    return number


def shown_target(value: str) -> str:
    return value


def is_gsm(text: str) -> bool:
    return all(character in GSM_BASIC or character in GSM_EXTENDED for character in text)


def gsm_length(text: str) -> int:
    return sum(2 if character in GSM_EXTENDED else 1 for character in text)


def segments(text: str) -> int:
    """How many SMS parts `text` is sent as."""
    if is_gsm(text):
        length, single, part = gsm_length(text), 160, 153
    else:
        # Characters outside the Basic Multilingual Plane take two UCS-2 units.
        length, single, part = len(text.encode("utf-16-le")) // 2, 70, 67
    return 1 if length <= single else -(-length // part)


def shortened(title: str, length: int, ellipsis: str) -> str:
    return title if len(title) <= length else title[: max(length - len(ellipsis), 0)].rstrip() + ellipsis


def fitted(content: ChatContent, max_segments: int) -> str:
    """`Page: Title - Status url`, the title shortened until the text fits `max_segments`."""
    update = content.content
    status, url = update.status_label, content.url
    for prefix in (f"{update.page_name}: ", ""):
        # As written: no SMS acts on mentions, and a zero-width space is outside GSM 03.38.
        title = update.title.text
        ellipsis = "..." if is_gsm(prefix + title + status + url) else "…"
        for length in range(len(title), -1, -1):
            # A hyphen, not a dash: a dash is outside GSM 03.38 and would halve the segment.
            text = f"{prefix}{shortened(title, length, ellipsis)} - {status} {url}"
            if segments(text) <= max_segments:
                return text
    return f"{status} {url}"


def message(content: ChatContent) -> str:
    with translation.override(content.content.language):
        return fitted(content, settings.SMS_MAX_SEGMENTS)


def provider_url(number: str) -> str:
    return settings.SMS_APPRISE_URL.replace("{number}", quote(number, safe="+"))


class SmsChannel:
    batch_size_setting = "NOTIFY_WEBHOOK_BATCH_SIZE"

    def send(self, deliveries: list[Delivery]) -> Iterator[list[Result]]:
        """One message at a time, each a group of its own: the outbox marks it sent as soon as it
        is accepted (a call through Apprise costs more than the UPDATE), so a crash repeats only
        the message in flight."""
        for delivery in deliveries:
            if not settings.SMS_APPRISE_URL:
                yield [Result(delivery, error="SMS_APPRISE_URL is not set.", permanent=False)]
                continue
            text = chat_content(delivery.update, delivery.subscriber.language, kind="sms", build=message)
            sent = send_through_apprise(
                provider_url(delivery.subscriber.target),
                title="",
                body=text,
                body_format=apprise.NotifyFormat.TEXT,
                event_id=delivery.idempotency_key,
            )
            yield [sent.result(delivery)]
