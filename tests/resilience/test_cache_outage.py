"""With the cache server (Redis) unreachable or hanging, pages still render and changes still save."""

import signal
import socket
import threading
from contextlib import contextmanager
from types import SimpleNamespace

import pytest
from django.core.cache import caches

from incidents.lifecycle.commands import PostUpdate
from incidents.lifecycle.updates import post_update
from statuspage import settings as configured

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_down(settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300
    settings.CACHES = {
        "default": {
            "BACKEND": "statuspage.redis_cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:8899/0",  # nothing listens there
        }
    }
    yield
    caches["default"].close()


def test_public_pages_and_json_render_live_without_the_cache(client, site, redis_down):
    assert client.get("/").status_code == 200
    assert client.get("/api/v2/summary.json").status_code == 200


def test_an_update_saves_without_the_cache(site, admin, redis_down, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        update = post_update(
            site["current"],
            PostUpdate(status="identified", body={"en": "Saved anyway."}, language="en"),
            actor=admin,
        )
    assert site["current"].updates.filter(pk=update.pk).exists()


@contextmanager
def failing_after(*, seconds: int):
    def give_up(_signal, _frame):
        raise TimeoutError(f"still waiting after {seconds} s")

    previous = signal.signal(signal.SIGALRM, give_up)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def hanging_redis():
    """A server that accepts connections and never answers: a Redis that hangs."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept():
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield SimpleNamespace(url=f"redis://127.0.0.1:{listener.getsockname()[1]}/0", accepted=accepted)
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    listener.close()


@pytest.mark.redis
def test_a_cache_server_that_hangs_costs_one_timeout_then_pages_render_live_without_it(
    client, site, settings, hanging_redis
):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300
    # The cache as configured for Redis, pointed at the server that hangs.
    settings.CACHES = {"default": {**configured.CACHES["default"], "LOCATION": hanging_redis.url}}
    with failing_after(seconds=60):  # a bound on the whole, not a speed check
        answers = [client.get(path).status_code for path in ("/", "/history/", "/", "/api/v2/summary.json")]

    assert answers == [200, 200, 200, 200]
    assert len(hanging_redis.accepted) == 1, "after the first timeout the cache is not asked again"
    caches["default"].close()


def test_a_cache_that_fails_between_reads_still_answers_the_page(client, site, settings, monkeypatch):
    """The fresh copy was read, then the lock cannot be taken (the server went away meanwhile)."""
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300

    add = caches["default"].add

    def gone_by_the_lock(key, *args, **kwargs):
        if key.endswith(":lock"):
            raise ConnectionError("the cache server went away")
        return add(key, *args, **kwargs)

    monkeypatch.setattr(caches["default"], "add", gone_by_the_lock)

    assert client.get("/history/").status_code == 200
    assert client.get("/api/v2/summary.json").status_code == 200
