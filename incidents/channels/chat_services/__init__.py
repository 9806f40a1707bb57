"""Chat services a subscriber names by an Apprise-style URL (`discord://id/token`,
`tgram://bot-token/chat-id`, `mmosts://host/token`, `matrixs://token@host/#room`,
`json://host/path`, `form://…`, `xml://…`): one module per service reads its URL and sends the
service's own HTTP requests through the guarded client, as webhooks are sent. One message per
update, one delivery at a time; the HTTP status classifies each outcome (`http_posts`).

The URL is a credential, so it is read back masked. Each service (its fixed host, or the origin
the URL names) has a circuit breaker of its own (`receiver_breakers`).
"""

from collections.abc import Generator
from types import ModuleType

import aiohttp
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext as _

from incidents.models import Delivery
from incidents.outbound.client import Answer, BlockingClient
from incidents.outbound.guard import check_host_addresses, check_host_name, check_sendable
from incidents.security.masking import is_masked, mask_secret

from .. import receiver_breakers
from ..base import Result, Sent
from ..chat_content import ChatContent, chat_content, with_manage_link
from ..emails import MANAGE_MARKER
from ..http_posts import guarded_client, receiver_failed, result_of
from . import discord, generic, matrix, mattermost, telegram
from .base import Message, Target, split_target

SERVICES: dict[str, ModuleType] = {
    "discord": discord,
    "tgram": telegram,
    "matrix": matrix,
    "matrixs": matrix,
    "mmost": mattermost,
    "mmosts": mattermost,
    "json": generic,
    "jsons": generic,
    "form": generic,
    "forms": generic,
    "xml": generic,
    "xmls": generic,
}
# Services whose host is fixed: the one the subscriber's URL names is not where messages go.
FIXED = {"discord": "discord.com", "tgram": "api.telegram.org"}  # the hosts of their API


def parsed(value: str) -> tuple[ModuleType, Target, str]:
    """The service module, the URL's parts and the origin its requests go to; ValueError when
    the URL is not one of a service we post to."""
    target = split_target(value)
    service = SERVICES.get(target.scheme)
    if service is None:
        raise ValueError(f"no service is reached by {target.scheme}://")
    return service, target, service.origin(target)


def check_target(value: str) -> str:
    """A URL of an allowed service whose host may be reached; raises ValidationError."""
    value = value.strip()
    if is_masked(value) or "••••" in value:
        raise ValidationError(_("Send the full Apprise URL: the masked one read back cannot be used."))
    if "://" not in value or value.partition("://")[0].lower() not in SERVICES:
        raise ValidationError(
            _("Use an Apprise URL of one of these services: %(schemes)s.") % {"schemes": ", ".join(SERVICES)}
        )
    try:
        _service, target, origin = parsed(value)
        check_sendable(origin)
    except (ValueError, ValidationError):
        raise ValidationError(
            _("Apprise cannot use this URL; check it against Apprise's documentation.")
        ) from None
    if target.scheme not in FIXED:
        check_host_addresses(check_host_name(target.host))
    return value


def shown_target(value: str) -> str:
    return f"{value.partition('://')[0].lower()}://{mask_secret(value)}"


def reached_host(value: str) -> str:
    target = split_target(value)
    return FIXED.get(target.scheme) or target.host


def send_message(client: BlockingClient, value: str, message: Message) -> Answer | BaseException | Sent:
    """Sends `message` to the service `value` names while its circuit is closed: its answer,
    the error of a request that failed, or why it was not sent."""
    try:
        service, target, origin = parsed(value)
        check_sendable(origin)
    except (ValueError, ValidationError) as error:
        return Sent(f"Address refused: {' '.join(getattr(error, 'messages', [str(error)]))}", permanent=True)
    circuit = receiver_breakers.origin_of(origin)
    until = receiver_breakers.refused_until(circuit)
    if until is not None:
        return Sent(receiver_breakers.held_error(circuit), retry_at=until)
    try:
        outcome: Answer | BaseException = service.send(client, target, message)
    except (aiohttp.ClientError, OSError) as error:  # TimeoutError is an OSError
        outcome = error
    except ValueError as error:
        return Sent(f"The service's answer cannot be read: {error}", permanent=True)
    receiver_breakers.record(circuit, failed=receiver_failed(outcome))
    return outcome


def _result(delivery: Delivery, outcome: Answer | BaseException | Sent) -> Result:
    return outcome.result(delivery) if isinstance(outcome, Sent) else result_of(delivery, outcome)


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


class ChatServiceChannel:
    batch_size_setting = "NOTIFY_WEBHOOK_BATCH_SIZE"

    def send(self, deliveries: list[Delivery]) -> Generator[list[Result]]:
        """One message at a time, each a group of its own: the outbox marks it sent as soon as it
        is accepted, so a crash repeats only the message in flight."""
        with guarded_client() as client:
            for delivery in deliveries:
                title, text = chat_content(delivery, kind="apprise", build=message)
                sent = Message(
                    title=title, text=with_manage_link(text, delivery), event_id=delivery.idempotency_key
                )
                yield [_result(delivery, send_message(client, delivery.subscriber.target, sent))]
