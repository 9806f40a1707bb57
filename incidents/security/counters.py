"""Atomic counters in fixed windows, on a store that never evicts them.

Redis (`INCR`, with `EXPIRE … NX` in the same transaction) when REDIS_URL is set, otherwise the
Counter table, incremented by a single upsert. Never the page cache: a cache may cull a key at
any moment, and a lost counter is a lock that opens.

While Redis cannot be reached the counters are kept in the Counter table, so the logins and the
public forms keep working through a Redis outage. A call that fails (settings.REDIS_TIMEOUT_SECONDS
bounds each) sends every call to the database for REDIS_RETRY_SECONDS, then the next call tries
Redis again: a Redis that hangs costs one request one timeout per interval, not every request one.
This breaker is the page cache's rule (incidents.public.cache_breaker) but its own: only a Redis
that fails may move the counts, since each move starts them afresh on the other store.
"""

import datetime as dt
import hashlib
import logging
import threading
import time
from collections.abc import Callable
from typing import TypeVar

import redis
from django.conf import settings
from django.db import connection
from django.db.models import F
from django.utils import timezone

from incidents.models import Counter

# A TypeVar rather than PEP 695 syntax: the shared import checker parses with Python 3.11.
T = TypeVar("T")

logger = logging.getLogger(__name__)

REDIS_PREFIX = "statuspage:counter:"
REDIS_RETRY_SECONDS = 10
_redis_down_until = 0.0  # time.monotonic()


def counter_key(scope: str, key: str) -> str:
    # Hashed so typed user names and addresses make bounded keys and are not stored as typed.
    return f"{scope}:{hashlib.sha256(key.encode()).hexdigest()[:40]}"


def count_hit(scope: str, key: str, *, window_seconds: int) -> int:
    """Counts one hit of `key` in `scope`; returns the hits in the current window, this one included.

    The window starts at the first hit and lasts `window_seconds`. Concurrent calls never lose
    a hit: each sees a distinct count.
    """
    name = counter_key(scope, key)
    return _on_store(
        in_redis=lambda client: _count_in_redis(client, name, window_seconds),
        in_database=lambda: _count_in_database(name, window_seconds),
    )


def take_back_hit(scope: str, key: str) -> None:
    """Takes back one hit of `key` in `scope` (an attempt that turned out not to count), never
    below zero; the window keeps its end."""
    name = counter_key(scope, key)
    _on_store(
        in_redis=lambda client: client.eval(TAKE_BACK_IN_REDIS, 1, REDIS_PREFIX + name),
        in_database=lambda: Counter.objects.filter(
            key=name, count__gt=0, window_ends_at__gt=timezone.now()
        ).update(count=F("count") - 1),
    )


def forget(scope: str, key: str) -> None:
    """Starts `key` afresh in `scope` (after a successful login, for example)."""
    name = counter_key(scope, key)
    _on_store(
        in_redis=lambda client: client.delete(REDIS_PREFIX + name),
        in_database=lambda: Counter.objects.filter(key=name).delete(),
    )


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


def redis_down() -> bool:
    return time.monotonic() < _redis_down_until


def reset() -> None:
    """Forgets past Redis failures (a fresh process)."""
    global _redis_down_until
    _redis_down_until = 0.0


def _on_store(*, in_redis: Callable[[redis.Redis], T], in_database: Callable[[], T]) -> T:  # noqa: UP047
    """`in_redis` when REDIS_URL is set and Redis answers, otherwise `in_database`."""
    global _redis_down_until
    if settings.REDIS_URL and not redis_down():
        try:
            return in_redis(_redis_client(settings.REDIS_URL))
        except redis.RedisError:
            _redis_down_until = time.monotonic() + REDIS_RETRY_SECONDS
            logger.warning(
                "Redis did not answer: counting in the database for %s s", REDIS_RETRY_SECONDS, exc_info=True
            )
    return in_database()


def _count_in_redis(client: redis.Redis, name: str, window_seconds: int) -> int:
    pipeline = client.pipeline(transaction=True)
    pipeline.incr(REDIS_PREFIX + name)
    # NX: only the first hit of a window sets the expiry, so the window does not slide.
    pipeline.expire(REDIS_PREFIX + name, window_seconds, nx=True)
    count, _expiry_set = pipeline.execute()
    return int(count)


# A key whose window ended meanwhile is not made again (it would have no expiry).
TAKE_BACK_IN_REDIS = """
if (tonumber(redis.call('GET', KEYS[1])) or 0) > 0 then return redis.call('DECR', KEYS[1]) end
return 0
"""


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
