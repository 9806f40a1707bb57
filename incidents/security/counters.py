"""Atomic counters in fixed windows, on a store that never evicts them.

Redis (`INCR`, with `EXPIRE … NX` in the same transaction) when REDIS_URL is set, otherwise the
Counter table, incremented by a single upsert. Never the page cache: a cache may cull a key at
any moment, and a lost counter is a lock that opens.
"""

import datetime as dt
import hashlib
import threading

import redis
from django.conf import settings
from django.db import connection
from django.utils import timezone

from incidents.models import Counter

REDIS_PREFIX = "statuspage:counter:"


def counter_key(scope: str, key: str) -> str:
    # Hashed so typed user names and addresses make bounded keys and are not stored as typed.
    return f"{scope}:{hashlib.sha256(key.encode()).hexdigest()[:40]}"


def count_hit(scope: str, key: str, *, window_seconds: int) -> int:
    """Counts one hit of `key` in `scope`; returns the hits in the current window, this one included.

    The window starts at the first hit and lasts `window_seconds`. Concurrent calls never lose
    a hit: each sees a distinct count.
    """
    name = counter_key(scope, key)
    if settings.REDIS_URL:
        return _count_in_redis(name, window_seconds)
    return _count_in_database(name, window_seconds)


def forget(scope: str, key: str) -> None:
    """Starts `key` afresh in `scope` (after a successful login, for example)."""
    name = counter_key(scope, key)
    if settings.REDIS_URL:
        _redis_client(settings.REDIS_URL).delete(REDIS_PREFIX + name)
    else:
        Counter.objects.filter(key=name).delete()


def prune_expired() -> int:
    """Deletes database counters whose window has ended; returns how many."""
    deleted, _by_model = Counter.objects.filter(window_ends_at__lte=timezone.now()).delete()
    return deleted


_clients: dict[str, redis.Redis] = {}
_clients_lock = threading.Lock()


def _redis_client(url: str) -> redis.Redis:
    # One client per process (thread-safe; its pool notices a fork). Under a lock: a second client
    # made by a concurrent first call would disconnect the shared pool when collected.
    with _clients_lock:
        if url not in _clients:
            timeout = settings.REDIS_TIMEOUT_SECONDS
            _clients[url] = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        return _clients[url]


def _count_in_redis(name: str, window_seconds: int) -> int:
    pipeline = _redis_client(settings.REDIS_URL).pipeline(transaction=True)
    pipeline.incr(REDIS_PREFIX + name)
    # NX: only the first hit of a window sets the expiry, so the window does not slide.
    pipeline.expire(REDIS_PREFIX + name, window_seconds, nx=True)
    count, _expiry_set = pipeline.execute()
    return int(count)


# One statement, so two requests can never both read the old count: PostgreSQL locks the row for
# the conflicting insert, SQLite the whole database. A window that has ended starts again at 1.
UPSERT = """
INSERT INTO {table} ({key}, {count}, {ends}) VALUES (%s, 1, %s)
ON CONFLICT ({key}) DO UPDATE SET
    {count} = CASE WHEN {table}.{ends} > %s THEN {table}.{count} + 1 ELSE 1 END,
    {ends} = CASE WHEN {table}.{ends} > %s THEN {table}.{ends} ELSE excluded.{ends} END
RETURNING {count}
"""


def _count_in_database(name: str, window_seconds: int) -> int:
    quote = connection.ops.quote_name
    sql = UPSERT.format(
        table=quote(Counter._meta.db_table),
        key=quote("key"),
        count=quote("count"),
        ends=quote("window_ends_at"),
    )
    now = timezone.now()
    as_stored = connection.ops.adapt_datetimefield_value
    ends, current = as_stored(now + dt.timedelta(seconds=window_seconds)), as_stored(now)
    with connection.cursor() as cursor:
        cursor.execute(sql, [name, ends, current, current])
        (count,) = cursor.fetchone()
    return count
