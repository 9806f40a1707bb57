"""Single flight for cached public documents: one request recomputes, the others serve stale.

A cached page has two entries: the fresh one, keyed by the content version and expiring after
its lifetime, and the latest one (any version), kept much longer. When the fresh entry is
missing, the request that wins a short lock (`cache.add`) computes it; every other request
meanwhile gets the latest entry, so a surge after an expiry or a publish costs one render,
not one per request. Only when there is no previous entry at all do the others wait for the
winner (briefly) before computing themselves.
"""

import logging
import time
from collections.abc import Callable
from typing import Any

from django.core.cache import cache

logger = logging.getLogger(__name__)

# Longest a computation may hold the lock; after that another request may try.
LOCK_SECONDS = 10
# How long waiters poll for the winner when there is nothing stale to serve.
WAIT_SECONDS = 5.0
WAIT_STEP = 0.02
# Stale copies outlive fresh ones by this factor (and at least a day): they are the fallback.
STALE_SECONDS = 24 * 3600
# How long a process keeps its own copy of a fresh value (bounded by the value's lifetime).
LOCAL_SECONDS = 5


# Fresh values this process has already read, by key (the key holds the content version, so a
# copy here is never out of date for long: at most its own lifetime). It saves the cache
# server round trip and the unpickling of a whole page on every hit.
LOCAL_ENTRIES = 256
_local: dict[str, tuple[float, Any]] = {}


def _remember(key: str, value: Any, timeout: int) -> None:
    if len(_local) >= LOCAL_ENTRIES:
        _local.clear()
    _local[key] = (time.monotonic() + timeout, value)


def fetch(*, fresh_key: str, latest_key: str, timeout: int, compute: Callable[[], Any | None]) -> Any | None:
    """The cached value for `fresh_key`, computed by one caller at a time.

    `compute` returns the value to store, or None for a result not worth caching (an error
    page); None is then returned to the caller after computing.
    """
    held = _local.get(fresh_key)
    if held is not None and held[0] > time.monotonic():
        return held[1]
    try:
        value = cache.get(fresh_key)
    except Exception:  # the cache server is down: render live rather than fail the page
        logger.warning("cache unavailable, computing %s uncached", fresh_key, exc_info=True)
        return compute()
    if value is not None:
        _remember(fresh_key, value, min(timeout, LOCAL_SECONDS))
        return value
    lock_key = f"{fresh_key}:lock"
    if not cache.add(lock_key, 1, timeout=LOCK_SECONDS):
        stale = cache.get(latest_key)
        if stale is not None:
            return stale
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            time.sleep(WAIT_STEP)
            value = cache.get(fresh_key)
            if value is not None:
                return value
    try:
        value = compute()
    except BaseException:
        # A page that raises (a 404 for an unknown slug) must not leave others waiting on the lock.
        _release(lock_key)
        raise
    try:
        if value is not None:
            cache.set(fresh_key, value, timeout=timeout)
            cache.set(latest_key, value, timeout=max(STALE_SECONDS, timeout * 10))
        cache.delete(lock_key)
    except Exception:
        logger.warning("cache unavailable, %s not stored", fresh_key, exc_info=True)
    return value


def _release(lock_key: str) -> None:
    try:
        cache.delete(lock_key)
    except Exception:
        logger.warning("cache unavailable, %s not released", lock_key, exc_info=True)
