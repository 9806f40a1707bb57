"""Chat services through Apprise (Discord, Telegram, Matrix, Mattermost, and generic JSON, form
or XML endpoints), one message per update, and the Apprise send the SMS channel shares.

The target is an Apprise URL (`discord://id/token`, `tgram://bot-token/chat-id`,
`matrixs://token@host/#room`, `mmosts://host/token`, `json://host/path`). Apprise makes its own
HTTP calls (requests), outside our guarded client, so every send runs inside
`guarded_connections`: each connection Apprise opens is judged by the outbound guard at connect
time, at the address it connects to, whatever asked for it (a redirect, a DNS answer that changed
since the check, Matrix's `.well-known` discovery). Before that, `check_before_send` refuses a
host that is already refused, with a clear error, and redirects are switched off. Matrix's
discovery is switched off too: the homeserver is the host the URL names.

Each service an Apprise URL reaches (its fixed host, or the host and port the URL names; for SMS
the operator's one provider) has a circuit breaker of its own, as webhooks do
(`receiver_breakers`). Apprise tells a failure of the service from a refusal of one message
only in its log: "A Connection error occurred …" for a timeout or a connection that failed,
"… error=<status>." for an HTTP answer. A failed send counts against the service when it logged
a connection error, a 5xx or a 429, or took the whole timeout; any other refusal (a 4xx about
one URL) counts as the service answering.
"""

import datetime as dt
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass

import apprise
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext as _

from incidents.models import Delivery
from incidents.outbound.guard import AddressRefused, check_before_send, check_host_addresses, check_host_name
from incidents.outbound.library_guard import guarded_connections
from incidents.security.masking import is_masked, mask_secret

from . import receiver_breakers
from .base import Result
from .chat_content import ChatContent, chat_content, with_manage_link
from .chat_http import EVENT_ID_HEADER
from .emails import MANAGE_MARKER

# Schemes a subscriber may use, with the host the service posts to when it is fixed (None: the
# URL's own host, which must pass the outbound guard like a webhook's).
SCHEMES: dict[str, str | None] = {
    "discord": "discord.com",
    "tgram": "api.telegram.org",
    "matrix": None,
    "matrixs": None,
    "mmost": None,
    "mmosts": None,
    "json": None,
    "jsons": None,
    "form": None,
    "forms": None,
    "xml": None,
    "xmls": None,
}
# These take extra request headers: each message carries its idempotency key as one.
HEADER_SCHEMES = {"json", "jsons", "form", "forms", "xml", "xmls"}

ASSET = apprise.AppriseAsset(http_redirects=False)
CONNECTION_ERROR = "Connection error"
HTTP_STATUS = re.compile(r"error=(\d{3})\b")


def scheme_of(url: str) -> str:
    return url.partition("://")[0].lower()


def service(url: str):
    """The Apprise plugin for `url`, or None when Apprise cannot use it."""
    return apprise.Apprise.instantiate(url, asset=ASSET)


def posts_to(url: str, plugin) -> str:
    """The host the service will connect to."""
    fixed = SCHEMES.get(scheme_of(url))
    return fixed or (plugin.host or "")


def check_target(value: str) -> str:
    """An Apprise URL of an allowed service whose host may be reached; raises ValidationError."""
    value = value.strip()
    if is_masked(value) or "••••" in value:
        raise ValidationError(_("Send the full Apprise URL: the masked one read back cannot be used."))
    if "://" not in value or scheme_of(value) not in SCHEMES:
        raise ValidationError(
            _("Use an Apprise URL of one of these services: %(schemes)s.") % {"schemes": ", ".join(SCHEMES)}
        )
    plugin = service(value)
    if plugin is None:
        raise ValidationError(_("Apprise cannot use this URL; check it against Apprise's documentation."))
    if SCHEMES[scheme_of(value)] is None:
        check_host_addresses(check_host_name(posts_to(value, plugin)))
    return value


def shown_target(value: str) -> str:
    return f"{scheme_of(value)}://{mask_secret(value)}"


def service_origin(url: str, plugin) -> str:
    """The service an Apprise URL reaches, as its circuit breaker knows it."""
    port = getattr(plugin, "port", None)
    return f"apprise:{scheme_of(url)}://{posts_to(url, plugin)}" + (f":{port}" if port else "")


def service_failed(problems: list[str], seconds: float, timeout: float) -> bool:
    """Whether what Apprise logged (or how long it took) tells of the service failing."""
    if seconds >= timeout:
        return True
    for problem in problems:
        status = HTTP_STATUS.search(problem)
        if CONNECTION_ERROR in problem or (status and (int(status[1]) >= 500 or status[1] == "429")):
            return True
    return False


@dataclass(frozen=True)
class Sent:
    """How a send through Apprise went: no error when it was accepted."""

    error: str = ""
    permanent: bool = False
    retry_at: dt.datetime | None = None  # not tried: the service's circuit is open

    def result(self, delivery: Delivery) -> Result:
        return Result(delivery, error=self.error, permanent=self.permanent, retry_at=self.retry_at)


def send_through_apprise(url: str, *, title: str, body: str, body_format: str, event_id: str) -> Sent:
    """One notification through Apprise while the service's circuit is closed, every connection
    it opens judged by the outbound guard."""
    plugin = service(url)
    if plugin is None:
        return Sent("Apprise cannot use this URL any more.", permanent=True)
    origin = service_origin(url, plugin)
    until = receiver_breakers.refused_until(origin)
    if until is not None:
        return Sent(receiver_breakers.held_error(origin), retry_at=until)
    # Subscribers' URLs are always of SCHEMES; another scheme can only be the SMS provider the
    # operator configured (twilio://…), judged only as it connects.
    if scheme_of(url) in SCHEMES:
        fixed = SCHEMES[scheme_of(url)]
        try:
            check_before_send(f"https://{fixed}/" if fixed else url)
        except AddressRefused as error:
            return Sent(f"Address refused: {error.reason}", permanent=True)
    timeout = settings.NOTIFY_WEBHOOK_TIMEOUT_SECONDS
    plugin.socket_connect_timeout = plugin.socket_read_timeout = timeout
    plugin.redirects = False
    if hasattr(plugin, "discovery"):
        # Matrix: .well-known would name the host the access token is sent to.
        plugin.discovery = False
    # Each service's own length limit (Discord 2,000, Telegram 4,096, SMS 160 …) by truncation.
    plugin.overflow_mode = apprise.common.OverflowMode.TRUNCATE
    if scheme_of(url) in HEADER_SCHEMES:
        plugin.headers[EVENT_ID_HEADER] = event_id
    notifier = apprise.Apprise(asset=ASSET)
    notifier.add(plugin)
    started = time.monotonic()
    with guarded_connections() as refusals:
        result = notifier.notify(body=body, title=title, body_format=body_format, timeout=timeout * 2 + 1)
    seconds = time.monotonic() - started
    if refusals and not result:
        # Our own decision, not the service failing: its circuit does not count it.
        receiver_breakers.record(origin, failed=False)
        return Sent(f"Address refused: {refusals[-1]}", permanent=True)
    if result:
        receiver_breakers.record(origin, failed=False)
        return Sent()
    problems = [entry.message for entry in result.logs() if entry.level in ("WARNING", "ERROR")]
    receiver_breakers.record(origin, failed=service_failed(problems, seconds, timeout))
    return Sent(("Apprise: " + (" ".join(problems[-2:]) or "not sent"))[:500])


def message(content: ChatContent) -> tuple[str, str]:
    """(title, Markdown body) for one update, in the language `content` was rendered in."""
    update = content.content
    with translation.override(update.language):
        lines = [f"**{_('Status')}:** {update.status_label} · **{_('Impact')}:** {content.impact_label}", ""]
        if content.body.strip():
            lines += [content.body.strip(), ""]
        for component in content.components:
            figure = f" · {component.figure}" if component.figure else ""
            lines.append(f"- {component.name}: {component.status_label}{figure}")
        if content.components:
            lines.append("")
        lines.append(f"[{_('View incident')}]({content.url}) · {update.page_name} · {update.shown_at}")
        lines.append(f"[{_('Manage subscription')}]({MANAGE_MARKER})")
        return content.heading, "\n".join(lines)


class AppriseChannel:
    batch_size_setting = "NOTIFY_WEBHOOK_BATCH_SIZE"

    def send(self, deliveries: list[Delivery]) -> Iterator[list[Result]]:
        """One message at a time, each a group of its own: the outbox marks it sent as soon as it
        is accepted (a call through Apprise costs more than the UPDATE), so a crash repeats only
        the message in flight."""
        for delivery in deliveries:
            title, body = chat_content(
                delivery.update, delivery.subscriber.language, kind="apprise", build=message
            )
            sent = send_through_apprise(
                delivery.subscriber.target,
                title=title,
                body=with_manage_link(body, delivery),
                body_format=apprise.NotifyFormat.MARKDOWN,
                event_id=delivery.idempotency_key,
            )
            yield [sent.result(delivery)]
