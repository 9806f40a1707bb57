"""SMS through the provider the operator configured as an Apprise URL (SMS_APPRISE_URL, with
`{number}` where the subscriber's number goes, e.g. `twilio://SID:Token@+15551234567/{number}`):
Apprise knows each vendor's API, the one thing the platform keeps it for.

Apprise makes its own HTTP calls (requests), outside our guarded client, so every send runs
inside `guarded_connections`: each connection it opens is judged by the outbound guard at
connect time, whatever asked for it. The provider has a circuit breaker of its own
(`receiver_breakers`). Apprise tells a failure of the service from a refusal of one message only
in its log ("A Connection error occurred …", "… error=<status>."), so that is what is read:
a connection error, a 5xx or a 429, or a send taking the whole timeout counts against it.

The target is a phone number in E.164 form. A message is one short text: the incident's title,
its status and the link. A segment holds 160 characters of the GSM 03.38 alphabet, or 70 of
anything else (UCS-2), and a longer text is split into parts of 153 or 67; the text is made to
fit SMS_MAX_SEGMENTS parts by shortening the title, never the link.
"""

import re
import time
from urllib.parse import quote

import apprise
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import Delivery
from incidents.outbound.library_guard import guarded_connections

from . import receiver_breakers
from .base import Sent
from .chat_content import ChatContent, chat_content
from .http_posts import EVENT_ID_HEADER

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


shown_target = str  # a number is no credential: read back as it is


def is_gsm(text: str) -> bool:
    return all(character in GSM_BASIC or character in GSM_EXTENDED for character in text)


def segments(text: str) -> int:
    if is_gsm(text):
        length, single, part = sum(2 if character in GSM_EXTENDED else 1 for character in text), 160, 153
    else:
        # Characters outside the Basic Multilingual Plane take two UCS-2 units.
        length, single, part = len(text.encode("utf-16-le")) // 2, 70, 67
    return 1 if length <= single else -(-length // part)


def shortened(title: str, length: int, ellipsis: str) -> str:
    return title if len(title) <= length else title[: max(length - len(ellipsis), 0)].rstrip() + ellipsis


def message(content: ChatContent) -> str:
    """`Page: Title - Status url`, the title shortened until the text fits SMS_MAX_SEGMENTS."""
    update = content.content
    status, url = update.status_label, content.url
    for prefix in (f"{update.page_name}: ", ""):
        # As written: no SMS acts on mentions, and a zero-width space is outside GSM 03.38.
        title = update.title.text
        ellipsis = "..." if is_gsm(prefix + title + status + url) else "…"
        for length in range(len(title), -1, -1):
            # A hyphen, not a dash: a dash is outside GSM 03.38 and would halve the segment.
            text = f"{prefix}{shortened(title, length, ellipsis)} - {status} {url}"
            if segments(text) <= settings.SMS_MAX_SEGMENTS:
                return text
    return f"{status} {url}"


ASSET = apprise.AppriseAsset(http_redirects=False)
HTTP_STATUS = re.compile(r"error=(\d{3})\b")


def provider_failed(problems: list[str], seconds: float, timeout: float) -> bool:
    """Whether what Apprise logged (or how long it took) tells of the provider failing."""
    statuses = [int(match[1]) for problem in problems if (match := HTTP_STATUS.search(problem))]
    connection_failed = any("Connection error" in problem for problem in problems)
    return (
        seconds >= timeout or connection_failed or any(status >= 500 or status == 429 for status in statuses)
    )


def send_text(number: str, text: str, *, event_id: str) -> Sent:
    provider_url = settings.SMS_APPRISE_URL.replace("{number}", quote(number, safe="+"))
    plugin = apprise.Apprise.instantiate(provider_url, asset=ASSET)
    if plugin is None:
        return Sent("Apprise cannot use SMS_APPRISE_URL.", permanent=True)
    origin = f"sms:{receiver_breakers.origin_of(settings.SMS_APPRISE_URL)}"
    until = receiver_breakers.refused_until(origin)
    if until is not None:
        return Sent(receiver_breakers.held_error(origin), retry_at=until)
    timeout = settings.NOTIFY_WEBHOOK_TIMEOUT_SECONDS
    plugin.socket_connect_timeout = plugin.socket_read_timeout = timeout
    plugin.redirects = False
    # Each vendor's own length limit by truncation (the text is already fitted to its segments).
    plugin.overflow_mode = apprise.common.OverflowMode.TRUNCATE
    if hasattr(plugin, "headers"):
        plugin.headers[EVENT_ID_HEADER] = event_id
    notifier = apprise.Apprise(asset=ASSET)
    notifier.add(plugin)
    started = time.monotonic()
    with guarded_connections() as refusals:
        accepted = notifier.notify(
            body=text, title="", body_format=apprise.NotifyFormat.TEXT, timeout=timeout * 2 + 1
        )
    if refusals and not accepted:
        # Our own decision, not the provider failing: its circuit does not count it.
        receiver_breakers.record(origin, failed=False)
        return Sent(f"Address refused: {refusals[-1]}", permanent=True)
    logged = [] if accepted else accepted.logs()
    problems = [entry.message for entry in logged if entry.level in ("WARNING", "ERROR")]
    receiver_breakers.record(origin, failed=provider_failed(problems, time.monotonic() - started, timeout))
    return Sent() if accepted else Sent(("Apprise: " + (" ".join(problems[-2:]) or "not sent"))[:500])


def notice(target: str, *, title: str, text: str, link: str, event_id: str) -> str:
    return send_text(target, f"{text} {link}".strip(), event_id=event_id).error


def send_delivery(delivery: Delivery) -> Sent:
    if not settings.SMS_APPRISE_URL:
        return Sent("SMS_APPRISE_URL is not set.")
    text = chat_content(delivery, kind="sms", build=message)
    return send_text(delivery.subscriber.target, text, event_id=delivery.idempotency_key)
