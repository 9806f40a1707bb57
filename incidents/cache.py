"""The public content version: one cache key that every write bumps after it commits.

Cached public representations (the Statuspage-compatible JSON, and anything else that
wants it) put the version in their cache key, so a committed change makes every cached
copy unreachable at once, on every process sharing the cache, with nothing to enumerate.
"""

import uuid

from django.core.cache import cache
from django.db import transaction

CONTENT_VERSION_KEY = "public-content-version"


def content_version() -> str:
    """The current version; a fresh one if the key was evicted (which is an invalidation too)."""
    version = cache.get(CONTENT_VERSION_KEY)
    if version is None:
        cache.add(CONTENT_VERSION_KEY, uuid.uuid4().hex, timeout=None)
        version = cache.get(CONTENT_VERSION_KEY)
    return version


def bump_content_version() -> None:
    cache.set(CONTENT_VERSION_KEY, uuid.uuid4().hex, timeout=None)


def bump_content_version_on_commit() -> None:
    """Invalidate once the surrounding transaction commits, so no reader caches the old rows anew."""
    transaction.on_commit(bump_content_version)
