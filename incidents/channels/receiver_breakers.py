"""Circuit breakers for the receivers of notifications (webhooks, Slack, Teams, the services
reached through Apprise and the SMS provider): one per origin (scheme, host and port), kept by
the worker process.

A receiver that times out, cannot be reached or answers 5xx or 429 NOTIFY_BREAKER_FAILURES
times in a row is not posted to for NOTIFY_BREAKER_COOLDOWN_SECONDS: its deliveries go back to
pending for when the cool-down ends, without spending an attempt. Then one post goes through
(half open): an answer closes the circuit, another failure opens it again. So a receiver that
hangs costs the dispatch loop one timeout per cool-down instead of one per group of posts, and
the mail and the other receivers behind it wait for nothing.

A 4xx is an answer about one subscriber's URL (a Slack webhook that was removed), not about the
host, so it counts as the receiver answering. The state is per process: a second worker learns
of a dead receiver from its own few failures, and the hot path writes nothing.
"""

import datetime as dt
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils import timezone


@dataclass
class Circuit:
    failures: int = 0
    open_until: dt.datetime | None = None
    trial: bool = False  # one post is out to see whether the receiver is back


_circuits: dict[str, Circuit] = {}
_lock = threading.Lock()


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2].lower()}"


def held_error(origin: str) -> str:
    return f"Not sent: {origin} failed repeatedly (circuit open)"


def _cooldown() -> dt.timedelta:
    return dt.timedelta(seconds=settings.NOTIFY_BREAKER_COOLDOWN_SECONDS)


def refused_until(origin: str) -> dt.datetime | None:
    """None when a post to `origin` may go now; otherwise the time it may be tried again."""
    now = timezone.now()
    with _lock:
        circuit = _circuits.get(origin)
        if circuit is None or circuit.open_until is None:
            return None
        if now >= circuit.open_until:
            # Cool-down over: this post is the trial. Should its outcome never come (the worker
            # stopped before posting it), the next trial goes after another cool-down.
            circuit.open_until, circuit.trial = now + _cooldown(), True
            return None
        if circuit.trial:  # the rest wait for the trial's outcome, not for another cool-down
            return min(circuit.open_until, now + dt.timedelta(seconds=settings.NOTIFY_RETRY_BASE_SECONDS))
        return circuit.open_until


def record(origin: str, *, failed: bool) -> None:
    """Counts one post's outcome: a failure, or the receiver answering (which closes the circuit)."""
    with _lock:
        if not failed:
            _circuits.pop(origin, None)
            return
        circuit = _circuits.setdefault(origin, Circuit())
        circuit.failures += 1
        if circuit.failures >= settings.NOTIFY_BREAKER_FAILURES:
            circuit.open_until, circuit.trial = timezone.now() + _cooldown(), False


def reset() -> None:
    with _lock:
        _circuits.clear()
