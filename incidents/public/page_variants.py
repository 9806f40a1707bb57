"""How long and how many copies the page cache keeps of a page asked for with a query.

Valid filters are as many as the pairs of days in the calendar: kept a day, every range anyone
tried stayed in the cache. So a copy lives until the current PUBLIC_FILTERED_PAGE_SECONDS period
ends, and a path keeps at most PUBLIC_FILTERED_PAGE_VARIANTS per language and period; a query
past the cap is answered and not kept.
"""

import hashlib
import logging
import time

from django.conf import settings
from django.core.cache import cache

from incidents.public import cache_breaker

logger = logging.getLogger(__name__)


def seconds_left() -> int:
    """What remains of the current period: how long a copy kept now may live."""
    period = settings.PUBLIC_FILTERED_PAGE_SECONDS
    return max(period - int(time.time()) % period, 1) if period > 0 else 0


def admit(*, page: str, query: str) -> bool:
    """Whether `page`'s copy for `query` may be kept: kept already, or this period's variants fit the cap."""
    period = settings.PUBLIC_FILTERED_PAGE_SECONDS
    if period <= 0:
        return False
    left = seconds_left()
    bucket = f"public:variants:{int(time.time()) // period}:{_digest(page)}"
    marker = f"{bucket}:{_digest(query)}"
    try:
        kept = cache.get(marker)
        if kept is None:
            cache.add(f"{bucket}:count", 0, timeout=left)
            kept = cache.incr(f"{bucket}:count") <= settings.PUBLIC_FILTERED_PAGE_VARIANTS
            cache.set(marker, kept, timeout=left)
    except ValueError:  # the count expired between add and incr: the period just ended
        return False
    except Exception:  # the cache server failed: answer the page, keep nothing
        cache_breaker.cache_failed()
        logger.warning("cache unavailable, %s?%s not kept", page, query, exc_info=True)
        return False
    return bool(kept)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]
