"""The platform really talks to PostgreSQL and Redis when they are configured."""

import threading

import pytest
from django.conf import settings
from django.db import IntegrityError, connection, transaction

from incidents.lifecycle.commands import DeclareIncident, PostUpdate
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import post_update
from incidents.models import StatusPeriod


@pytest.mark.postgres
def test_postgres_enforces_one_open_status_period_per_component(component, at):
    assert connection.vendor == "postgresql"
    StatusPeriod.objects.create(component=component, status="operational", started_at=at)
    with pytest.raises(IntegrityError), transaction.atomic():
        StatusPeriod.objects.create(component=component, status="major_outage", started_at=at)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_updates_on_postgres_each_bump_the_version_once(responder):
    incident = declare_incident(
        DeclareIncident(title="Retry storm", language="en", body="x"), actor=responder
    )
    version_before = incident.version
    errors = []

    def post(n):
        try:
            post_update(
                incident,
                PostUpdate(status="identified", body={"en": f"update {n}"}, language="en"),
                actor=responder,
            )
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    incident.refresh_from_db()
    assert errors == []
    assert incident.updates.count() == 5
    # Row locks serialise the writers: no increment is lost.
    assert incident.version == version_before + 4


@pytest.mark.redis
def test_celery_broker_is_redis_and_carries_messages():
    from kombu import Connection, Queue

    assert settings.CELERY_BROKER_URL.startswith("redis://")
    queue = Queue("statuspage-selftest")
    with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
        producer = conn.Producer()
        producer.publish({"hello": "redis"}, routing_key=queue.name, declare=[queue], retry=False)
        simple = conn.SimpleQueue(queue.name)
        message = simple.get(timeout=2)
        assert message.payload == {"hello": "redis"}
        message.ack()
        simple.close()


@pytest.mark.redis
def test_redis_cache_is_shared_between_connections():
    from statuspage.redis_cache import RedisCache

    first = RedisCache(settings.REDIS_URL, {"KEY_PREFIX": "selftest"})
    second = RedisCache(settings.REDIS_URL, {"KEY_PREFIX": "selftest"})
    first.set("banner", "degraded", 30)
    assert second.get("banner") == "degraded"
    second.delete("banner")


@pytest.mark.redis
def test_the_redis_cache_builds_one_client_and_keeps_using_it():
    from statuspage.redis_cache import RedisCache

    cache = RedisCache(settings.REDIS_URL, {"KEY_PREFIX": "selftest"})
    cache.set("banner", "degraded", 30)
    assert cache.get_many(["banner"]) == {"banner": "degraded"}
    assert cache.add("banner", "operational", 30) is False
    cache.delete("banner")
    assert len(cache._cache._clients) == 1
