"""Chat services reached by one JSON POST to a webhook URL (Slack, Microsoft Teams): checking
and masking that URL, and the channel posting through the guarded client (`ChatPostChannel`,
given each service's message builder in the registry).

The URL is the credential (anyone who has it can post to the channel), so it is write-only:
read back, it shows its scheme and host and a keyed digest of the rest.
"""

import json
from collections.abc import Callable, Generator
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import Delivery
from incidents.outbound.guard import check_sendable, check_url
from incidents.security.masking import is_masked, mask_secret

from .base import Result
from .chat_content import ChatContent, chat_content, with_manage_link
from .http_posts import Post, json_headers, send_posts


def check_webhook_url(value: str) -> str:
    """An http(s) URL to an allowed address (resolved now); raises ValidationError."""
    value = value.strip()
    if is_masked(value) or "••••" in value:
        raise ValidationError(_("Send the full webhook URL: the masked one read back cannot be used."))
    check_url(value)
    return value


def masked_url(value: str) -> str:
    """`https://hooks.slack.com/••••1a2b3c4d`: where it goes, not the secret part."""
    parts = urlsplit(value)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}/{mask_secret(value)}"


def json_post(delivery: Delivery, url: str, payload: dict) -> Post | Result:
    """The POST of `payload` to `url`, or the Result of a URL that may no longer be used."""
    try:
        check_sendable(url)
    except ValidationError as error:
        return Result(delivery, error=f"Address refused: {' '.join(error.messages)}", permanent=True)
    body = with_manage_link(json.dumps(payload, ensure_ascii=False, separators=(",", ":")), delivery).encode()
    # Slack and Teams ignore the event id; Slack-compatible receivers can drop a repeat by it.
    return Post(delivery, url, body, json_headers(event_id=delivery.idempotency_key))


class ChatPostChannel:
    """A chat service reached by one JSON POST per update to the subscriber's webhook URL:
    `build` turns the update's `ChatContent` into the service's message, once per (update,
    language), and the messages are posted in concurrent groups."""

    batch_size_setting = "NOTIFY_WEBHOOK_BATCH_SIZE"

    def __init__(self, *, kind: str, build: Callable[[ChatContent], dict]):
        self.kind = kind
        self.build = build

    def send(self, deliveries: list[Delivery]) -> Generator[list[Result]]:
        posts = (
            json_post(
                delivery,
                delivery.subscriber.target,
                chat_content(delivery, kind=self.kind, build=self.build),
            )
            for delivery in deliveries
        )
        return send_posts(posts, timeout=settings.NOTIFY_WEBHOOK_TIMEOUT_SECONDS)
