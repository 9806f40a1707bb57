"""Chat services reached by one JSON POST to a webhook URL (Slack, Microsoft Teams): checking
and masking that URL, and posting through the guarded client.

The URL is the credential (anyone who has it can post to the channel), so it is write-only:
read back, it shows its scheme and host and a keyed digest of the rest.
"""

import json
from urllib.parse import urlsplit

import aiohttp
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import Delivery
from incidents.outbound.client import BlockingClient, refusal_in
from incidents.outbound.guard import check_sendable, check_url
from incidents.security.masking import is_masked, mask_secret

from .base import Result

EVENT_ID_HEADER = "X-Status-Event-Id"
# Answers that will not change on retry. 408, 425 and 429 mean "later", so they are retried.
RETRYABLE_4XX = {408, 409, 425, 429}


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


def post_json(delivery: Delivery, url: str, payload: dict, *, client: BlockingClient) -> Result:
    """POSTs `payload` without following redirects and turns the answer into a Result."""
    try:
        check_sendable(url)
    except ValidationError as error:
        return Result(delivery, error=f"Address refused: {' '.join(error.messages)}", permanent=True)
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    headers = {
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": f"{settings.STATUS_PAGE_NAME} notifications",
        # Slack and Teams ignore it; Slack-compatible receivers can drop a repeat by it.
        EVENT_ID_HEADER: delivery.idempotency_key,
    }
    try:
        answer = client.post(url, body=body, headers=headers, timeout=settings.NOTIFY_WEBHOOK_TIMEOUT_SECONDS)
    except (aiohttp.ClientError, OSError) as error:  # TimeoutError is an OSError
        refusal = refusal_in(error)
        if refusal:
            return Result(delivery, error=f"Address refused: {refusal}", permanent=True)
        return Result(delivery, error=f"Unreachable: {error or type(error).__name__}", permanent=False)
    if answer.status >= 300:
        permanent = 400 <= answer.status < 500 and answer.status not in RETRYABLE_4XX
        return Result(delivery, error=f"HTTP {answer.status} from the service", permanent=permanent)
    return Result(delivery)
