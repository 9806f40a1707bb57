"""Fixed-window rate limits on the atomic counters (never on the page cache)."""

from .counters import count_hit


def allow(scope: str, key: str, *, limit: int, window_seconds: int) -> bool:
    """Counts one hit for `key` in `scope`; False once more than `limit` fall in the window."""
    return count_hit(f"rate-{scope}", key, window_seconds=window_seconds) <= limit
