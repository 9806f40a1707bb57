"""The atomic counters behind login protection and rate limits: Redis or the database, never
the page cache, and no hit lost when many requests count at once."""

import datetime as dt
import threading

import pytest
import time_machine
from django.db import connection

from incidents.models import Counter
from incidents.security.counters import count_hit, forget

THREADS = 12


def _count_in_threads(scope: str, key: str) -> list[int]:
    counts, errors = [], []
    start = threading.Barrier(THREADS)

    def hit():
        try:
            start.wait()
            counts.append(count_hit(scope, key, window_seconds=60))
        except Exception as error:  # reported by the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=hit) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    return counts


@pytest.mark.django_db
def test_the_database_counter_counts_each_hit_in_its_window(settings):
    settings.REDIS_URL = ""

    assert [count_hit("test", "10.0.0.1", window_seconds=60) for _ in range(3)] == [1, 2, 3]
    assert count_hit("test", "10.0.0.2", window_seconds=60) == 1
    assert Counter.objects.count() == 2


@pytest.mark.django_db
def test_the_database_counter_starts_again_when_its_window_ends(settings):
    settings.REDIS_URL = ""
    with time_machine.travel(dt.datetime(2026, 3, 4, 9, 0, tzinfo=dt.UTC), tick=False) as traveller:
        count_hit("test", "10.0.0.1", window_seconds=60)
        count_hit("test", "10.0.0.1", window_seconds=60)
        traveller.shift(dt.timedelta(seconds=59))
        assert count_hit("test", "10.0.0.1", window_seconds=60) == 3
        traveller.shift(dt.timedelta(seconds=2))
        assert count_hit("test", "10.0.0.1", window_seconds=60) == 1


@pytest.mark.django_db
def test_forgetting_a_key_starts_it_afresh(settings):
    settings.REDIS_URL = ""
    count_hit("test", "rita", window_seconds=60)

    forget("test", "rita")

    assert count_hit("test", "rita", window_seconds=60) == 1


@pytest.mark.django_db
def test_counters_do_not_live_in_the_page_cache(settings):
    settings.REDIS_URL = ""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "tiny",
            "OPTIONS": {"MAX_ENTRIES": 2, "CULL_FREQUENCY": 1},
        }
    }
    from django.core.cache import cache

    count_hit("test", "10.0.0.1", window_seconds=60)
    cache.clear()

    assert count_hit("test", "10.0.0.1", window_seconds=60) == 2


@pytest.mark.redis
def test_the_redis_counter_counts_expires_and_forgets(settings):
    assert [count_hit("test", "10.0.0.1", window_seconds=1) for _ in range(3)] == [1, 2, 3]
    forget("test", "10.0.0.1")
    assert count_hit("test", "10.0.0.1", window_seconds=1) == 1

    threading.Event().wait(1.2)

    assert count_hit("test", "10.0.0.1", window_seconds=1) == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_hits_in_postgresql_are_all_counted(settings):
    settings.REDIS_URL = ""

    counts = _count_in_threads("test", "10.0.0.9")

    assert sorted(counts) == list(range(1, THREADS + 1))
    assert Counter.objects.get().count == THREADS


@pytest.mark.redis
def test_concurrent_hits_in_redis_are_all_counted():
    counts = _count_in_threads("test", "10.0.0.9")

    assert sorted(counts) == list(range(1, THREADS + 1))
