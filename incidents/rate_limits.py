"""Fixed-window rate limits kept in the shared cache (Redis in production)."""

import hashlib

from django.core.cache import cache


def allow(scope: str, key: str, *, limit: int, window_seconds: int) -> bool:
    """Counts one hit for `key` in `scope`; False once more than `limit` fall in the window."""
    digest = hashlib.sha256(key.encode()).hexdigest()[:32]  # keeps addresses out of cache keys
    cache_key = f"rate:{scope}:{digest}"
    cache.add(cache_key, 0, timeout=window_seconds)
    try:
        hits = cache.incr(cache_key)
    except ValueError:  # expired between add and incr
        cache.set(cache_key, 1, timeout=window_seconds)
        hits = 1
    return hits <= limit
