"""Notifications that are one HTTP POST each (webhooks, Slack, Teams): sent a few at a time
concurrently through the guarded client, and each answer turned into a `Result`.

Slack's and Teams' webhook URL is the credential (anyone who has it can post to the channel), so
it is write-only: read back, it shows its scheme and host and a keyed digest of the rest.

A group's results (at most CONCURRENT_POSTS) are marked `sent` in one UPDATE before the next
group goes out, so a worker that dies sends again at most the group in flight. A group holds at
most one message per subscriber, so each subscriber receives its messages in order (a component
going into maintenance and out of it must not arrive the other way round).
"""

import datetime as dt
import json
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from urllib.parse import urlsplit

import aiohttp
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import Delivery
from incidents.outbound.client import Answer, BlockingClient, refusal_in
from incidents.outbound.guard import check_sendable, check_url
from incidents.security.masking import is_masked, mask_secret

from . import receiver_breakers
from .base import Result, Sent
from .chat_content import ChatContent, chat_content, with_manage_link
from .run_scoped import RunScoped

CONCURRENT_POSTS = 10
EVENT_ID_HEADER = "X-Status-Event-Id"
# Answers that will not change on retry. 408, 425 and 429 mean "later", so they are retried.
RETRYABLE_4XX = {408, 409, 425, 429}


@dataclass(frozen=True)
class Post:
    delivery: Delivery
    url: str
    body: bytes
    headers: dict[str, str]


def json_headers(*, event_id: str, content_type: str = "application/json; charset=utf-8") -> dict[str, str]:
    """The headers of a notification's request; receivers can drop a repeat by its event id."""
    return {
        "Content-Type": content_type,
        "User-Agent": f"{settings.STATUS_PAGE_NAME} notifications",
        EVENT_ID_HEADER: event_id,
    }


def json_text(payload: dict) -> str:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def refusal(url: str) -> Sent | None:
    try:
        check_sendable(url)
    except ValidationError as error:
        return Sent(f"Address refused: {' '.join(error.messages)}", permanent=True)
    return None


def answer_error(answer: Answer) -> str:
    return "" if answer.status < 300 else f"HTTP {answer.status} from the receiver"


def sent_of(outcome: Answer | BaseException) -> Sent:
    if isinstance(outcome, BaseException):
        if not isinstance(outcome, aiohttp.ClientError | OSError):  # TimeoutError is an OSError
            raise outcome
        refused = refusal_in(outcome)
        if refused:
            return Sent(f"Address refused: {refused}", permanent=True)
        return Sent(f"Unreachable: {outcome or type(outcome).__name__}")
    return Sent(
        answer_error(outcome), permanent=400 <= outcome.status < 500 and outcome.status not in RETRYABLE_4XX
    )


_kept = RunScoped(close=lambda client: client.__exit__(None, None, None))


def kept_connections() -> AbstractContextManager[None]:
    """Posts inside the block (a worker's dispatch run) share one client, opened at the first post
    and closed at the end: connections and TLS handshakes are reused from one batch to the next."""
    return _kept.kept()


@contextmanager
def guarded_client() -> Iterator[BlockingClient]:
    """The client kept by `kept_connections`, or one for this block alone."""
    if _kept.depth:
        if _kept.value is None:
            _kept.value = BlockingClient().__enter__()
        yield _kept.value
        return
    with BlockingClient() as client:
        yield client


def send_posts(items: Iterable[Post | Result]) -> Generator[list[Result]]:
    """Posts the `Post`s in concurrent groups, yielding each group's results as a list; a
    `Result` among the items (refused before sending) is passed on in the next group."""
    group: list[Post | Result] = []
    receivers: set[int] = set()
    held: dict[int, dt.datetime] = {}
    with guarded_client() as client:
        for item in items:
            if isinstance(item, Post):
                item = _admitted(item, held)
            if isinstance(item, Post) and item.delivery.subscriber_id in receivers:
                yield _post_group(group, client=client)
                group, receivers = [], set()
            group.append(item)
            if isinstance(item, Post):
                receivers.add(item.delivery.subscriber_id)
            if len(receivers) >= CONCURRENT_POSTS:
                yield _post_group(group, client=client)
                group, receivers = [], set()
        if group:
            yield _post_group(group, client=client)


def _admitted(post: Post, held: dict[int, dt.datetime]) -> Post | Result:
    """The post, or a Result holding it back while its receiver's circuit is open; a held
    subscriber's later messages are held too, until the same time, so they keep their order."""
    subscriber, origin = post.delivery.subscriber_id, receiver_breakers.origin_of(post.url)
    if subscriber not in held:
        until = receiver_breakers.refused_until(origin)
        if until is None:
            return post
        held[subscriber] = until
    return Result(post.delivery, error=receiver_breakers.held_error(origin), retry_at=held[subscriber])


def receiver_failed(outcome: Answer | BaseException) -> bool:
    """Whether an outcome tells of the receiver itself failing (what its circuit counts): no
    answer in time, no connection, or a 5xx or 429. A refused address is our own decision."""
    if isinstance(outcome, BaseException):
        return refusal_in(outcome) is None
    return outcome.status >= 500 or outcome.status == 429


def _post_group(group: list[Post | Result], *, client: BlockingClient) -> list[Result]:
    posts = [entry for entry in group if isinstance(entry, Post)]
    requests = [(post.url, post.body, post.headers) for post in posts]
    outcomes = client.post_all(requests, timeout=settings.NOTIFY_WEBHOOK_TIMEOUT_SECONDS) if posts else []
    for post, outcome in zip(posts, outcomes, strict=True):
        receiver_breakers.record(receiver_breakers.origin_of(post.url), failed=receiver_failed(outcome))
    answered = iter(
        sent_of(outcome).result(post.delivery) for post, outcome in zip(posts, outcomes, strict=True)
    )
    return [next(answered) if isinstance(entry, Post) else entry for entry in group]


def check_webhook_url(value: str) -> str:
    value = value.strip()
    if is_masked(value) or "••••" in value:
        raise ValidationError(_("Send the full webhook URL: the masked one read back cannot be used."))
    check_url(value)
    return value


def masked_url(value: str) -> str:
    """`https://hooks.slack.com/••••1a2b3c4d`: where it goes, not the secret part."""
    parts = urlsplit(value)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}/{mask_secret(value)}"


def post_notice(url: str, payload: dict, *, event_id: str) -> str:
    """Posts a message about a subscription itself; the error, or "" when it was accepted."""
    refused = refusal(url)
    if refused:
        return refused.error
    body, headers = json_text(payload).encode(), json_headers(event_id=event_id)
    with guarded_client() as client:
        answer = client.request(
            "POST", url, body=body, headers=headers, timeout=settings.NOTIFY_WEBHOOK_TIMEOUT_SECONDS
        )
    return answer_error(answer)


class ChatPostChannel:
    """Slack or Teams: `build` turns the update's `ChatContent` into the service's message, once
    per (update, language), posted to each subscriber's webhook URL in concurrent groups."""

    batch_size_setting = "NOTIFY_WEBHOOK_BATCH_SIZE"

    def __init__(self, *, kind: str, build: Callable[[ChatContent], dict]):
        self.kind = kind
        self.build = build

    def post(self, delivery: Delivery) -> Post | Result:
        refused = refusal(delivery.subscriber.target)
        if refused:
            return refused.result(delivery)
        payload = chat_content(delivery, kind=self.kind, build=self.build)
        # Slack and Teams ignore the event id; Slack-compatible receivers can drop a repeat by it.
        body = with_manage_link(json_text(payload), delivery).encode()
        return Post(
            delivery, delivery.subscriber.target, body, json_headers(event_id=delivery.idempotency_key)
        )

    def send(self, deliveries: list[Delivery]) -> Generator[list[Result]]:
        return send_posts(map(self.post, deliveries))
