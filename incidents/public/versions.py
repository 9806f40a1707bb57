"""The two versions that key every cached public page: content (edits readers see) and live
(samples, statuses probes move). Pages showing live figures are keyed by both, the others by the
content version only, so a sample never throws away history pages or feeds.

The live version moves at most once every PUBLIC_METRICS_REFRESH_SECONDS: probes write many
times a second, and a version bumped on each would leave the cache empty. Versions move once the
change commits, so a page rendered meanwhile never shows uncommitted data; old entries expire.
"""

import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from incidents.public import cache_breaker

CONTENT_KEY = "public:content-version"
LIVE_KEY = "public:live-version"
# Set while live_changed() bumped the live version within the last refresh interval.
LIVE_RECENT_KEY = "public:live-bumped-recently"
# Set when a live change came within that interval: the next reader after it bumps the version.
LIVE_PENDING_KEY = "public:live-pending"


def _version(key: str, found: int | None) -> int:
    """The version under `key`, given what a read just found there (None: nothing yet)."""
    if found is not None:
        return found
    # A fresh start (or an evicted key) begins from the clock, never from an old number.
    cache.add(key, time.time_ns(), timeout=None)
    return cache.get(key, 0)


def _bump(key: str) -> int:
    """Moves the version under `key` on and returns the new one."""
    try:
        return cache.incr(key)
    except ValueError:  # nothing there yet
        return _version(key, None)


def content_version() -> int:
    return _version(CONTENT_KEY, cache.get(CONTENT_KEY))


def live_version() -> int:
    """The live version, first catching up on a live change the refresh interval held back."""
    return _live_version(cache.get_many([LIVE_KEY, LIVE_PENDING_KEY]))


def _live_version(found: dict) -> int:
    if found.get(LIVE_PENDING_KEY) and _may_bump_live():
        cache.delete(LIVE_PENDING_KEY)
        return _bump(LIVE_KEY)
    return _version(LIVE_KEY, found.get(LIVE_KEY))


def page_version(*, live: bool) -> str:
    """The version a page is kept under: both versions for a page showing live figures."""
    if not live:
        return str(content_version())
    # One read for the three keys: with Redis, one round trip instead of three on every hit.
    found = cache.get_many([CONTENT_KEY, LIVE_KEY, LIVE_PENDING_KEY])
    return f"{_version(CONTENT_KEY, found.get(CONTENT_KEY))}.{_live_version(found)}"


def page_version_or_none(*, live: bool) -> str | None:
    """`page_version`, or None while the cache server is unreachable (render live then)."""
    return _or_none(lambda: page_version(live=live))


def live_version_or_none() -> int | None:
    """`live_version`, or None while the cache server is unreachable."""
    return _or_none(live_version)


def _or_none(read: Callable[[], Any]) -> Any:
    if cache_breaker.cache_down():
        return None
    try:
        return read()
    except Exception:  # any cache failure; a saved change must never fail a page
        cache_breaker.cache_failed()
        return None


def content_changed() -> None:
    """Drops every cached public page once the transaction commits (each node's snapshot follows)."""
    # Robust: a cache server that is down must not turn a saved change into an error.
    transaction.on_commit(_bump_content, robust=True)


def live_changed() -> None:
    """Drops the pages showing live figures on commit, at most once per PUBLIC_METRICS_REFRESH_SECONDS."""
    transaction.on_commit(_note_live_change, robust=True)


def _bump_content() -> None:
    _bump(CONTENT_KEY)


def _note_live_change() -> None:
    if _may_bump_live():
        _bump(LIVE_KEY)
    else:
        cache.set(LIVE_PENDING_KEY, 1, timeout=None)


def _may_bump_live() -> bool:
    seconds = settings.PUBLIC_METRICS_REFRESH_SECONDS
    return seconds <= 0 or cache.add(LIVE_RECENT_KEY, 1, timeout=seconds)
