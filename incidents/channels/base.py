"""The transport every channel implements, and what it returns for each delivery it tried."""

import datetime as dt
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Protocol

from incidents.models import Delivery, IncidentUpdate


@dataclass(frozen=True)
class Result:
    delivery: Delivery
    error: str = ""
    permanent: bool = False  # no retry: an address that does not exist, a receiver answering 4xx
    # Not tried (its receiver's circuit is open): pending again from this time, no attempt spent.
    retry_at: dt.datetime | None = None

    @property
    def ok(self) -> bool:
        return not self.error


@dataclass(frozen=True)
class Sent:
    """How one message went, for a delivery's Result or a notice (which has no delivery)."""

    error: str = ""
    permanent: bool = False
    retry_at: dt.datetime | None = None  # not tried: the receiver's circuit is open

    def result(self, delivery: Delivery) -> Result:
        return Result(delivery, error=self.error, permanent=self.permanent, retry_at=self.retry_at)


class Transport(Protocol):
    """Sends a batch, yielding each delivery's Result as soon as it is known, or a list of them
    for messages that went out together (the outbox marks a list at once, before the next)."""

    # The setting naming how many rows a worker claims for the channel at once.
    batch_size_setting: str

    def send(self, deliveries: list[Delivery]) -> Generator[Result | list[Result]]: ...


def update_of(delivery: Delivery) -> IncidentUpdate:
    """The update a delivery tells of: every channel but webhooks is sent updates only."""
    if delivery.update is None:
        raise ValueError(f"delivery {delivery.pk} tells of no incident update")
    return delivery.update


class OneAtATime:
    """Sends one message at a time, each a group of its own: the outbox marks it sent as soon as
    it is accepted (a call to a chat service or an SMS provider costs more than the UPDATE), so
    a crash repeats only the message in flight."""

    batch_size_setting = "NOTIFY_WEBHOOK_BATCH_SIZE"

    def __init__(self, send_one: Callable[[Delivery], Sent]) -> None:
        self.send_one = send_one

    def send(self, deliveries: list[Delivery]) -> Generator[list[Result]]:
        for delivery in deliveries:
            yield [self.send_one(delivery).result(delivery)]
