"""Parts of public pages kept in the cache under what they show: reads and writes that a cache
failure never turns into a failed page (the part is drawn afresh, the breaker opens)."""

import logging
from typing import Any

from django.core.cache import cache

from incidents.public import cache_breaker

logger = logging.getLogger(__name__)


def kept_many(keys: list[str]) -> dict[str, Any]:
    """The parts found under `keys`; none while the cache server is down or failing."""
    if not keys or cache_breaker.cache_down():
        return {}
    try:
        return cache.get_many(keys)
    except Exception:  # any cache failure: the parts are drawn afresh
        cache_breaker.cache_failed()
        return {}


def keep_many(parts: dict[str, Any], *, seconds: int) -> None:
    if not parts or cache_breaker.cache_down():
        return
    try:
        cache.set_many(parts, timeout=seconds)
    except Exception:  # a cache failure must never fail the page
        cache_breaker.cache_failed()
        logger.warning("Cache unreachable: drawn parts not kept", exc_info=True)
