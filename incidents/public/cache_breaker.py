"""A circuit breaker on the cache server, per process: after a failure pages render live for
CACHE_RETRY_SECONDS, so a hanging cache costs one timeout per interval, not one per request."""

import time

CACHE_RETRY_SECONDS = 10
_down_until = 0.0  # time.monotonic()


def cache_down() -> bool:
    return time.monotonic() < _down_until


def cache_failed() -> None:
    global _down_until
    _down_until = time.monotonic() + CACHE_RETRY_SECONDS


def reset() -> None:
    """Forgets past failures (a fresh process)."""
    global _down_until
    _down_until = 0.0
