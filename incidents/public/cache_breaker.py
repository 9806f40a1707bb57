"""A circuit breaker on the cache server, per process.

After a failure (a timeout included: settings.REDIS_TIMEOUT_SECONDS bounds each call) the public
pages are rendered live without asking the cache for CACHE_RETRY_SECONDS; then the next request
tries it again. So a cache server that hangs costs one request one timeout per interval, not
every request one timeout.
"""

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
