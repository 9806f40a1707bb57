"""The outbox survives the task queue: a broker that is down at publication loses nothing.

Needs a real Redis (REDIS_URL); the "down" broker is a Redis URL on a closed local port.
"""

import time
from contextlib import contextmanager

import pytest
import redis
from django.conf import settings as django_settings

from incidents.channels.registry import DISPATCH_LANES
from incidents.lifecycle.commands import PostUpdate
from incidents.lifecycle.updates import post_update
from incidents.models import Delivery, DeliveryState
from incidents.services.notifications import KickOutcome, watch_notifications
from incidents.tasks import notify
from statuspage.celery import app as celery_app

from .conftest import free_port

pytestmark = [pytest.mark.django_db, pytest.mark.redis]


@contextmanager
def broker_at(url: str):
    """Points the Celery app at `url` for the block (its connection pools are rebuilt)."""
    previous = celery_app.conf.broker_url

    def reset(to):
        celery_app.conf.broker_url = to
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    reset(url)
    try:
        yield
    finally:
        reset(previous)


@pytest.fixture
def notify_queue():
    """The `notify` list in the test Redis database, emptied before and after."""
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    client.delete("notify")
    yield client
    client.delete("notify")


def test_broker_down_at_publication_then_back(
    smtp_sink, notify_queue, make_subscriber, declare, django_capture_on_commit_callbacks
):
    make_subscriber("a@example.com")
    make_subscriber("b@example.com")
    closed_port = free_port()

    with broker_at(f"redis://127.0.0.1:{closed_port}/0"), watch_notifications() as kicks:
        started = time.monotonic()
        with django_capture_on_commit_callbacks(execute=True):
            incident = declare()
        elapsed = time.monotonic() - started

    # The update is saved and the editor can say the queue was unreachable.
    assert incident.updates.count() == 1
    assert kicks.broker_unreachable
    assert kicks.outcomes == [KickOutcome.BROKER_UNREACHABLE]
    assert elapsed < 10, "publishing must not hang on a dead broker"
    assert Delivery.objects.filter(state=DeliveryState.PENDING).count() == 2
    assert notify_queue.llen("notify") == 0

    # The broker is back: the periodic sweep sees pending rows and tells a worker to look.
    result = notify.sweep()
    assert result["due"] is True
    assert notify_queue.llen("notify") == len(DISPATCH_LANES)
    notify.dispatch()  # what the worker runs for that message

    assert sorted(m["To"] for m in smtp_sink.messages) == ["a@example.com", "b@example.com"]
    assert set(Delivery.objects.values_list("state", flat=True)) == {DeliveryState.SENT}


def test_post_update_reports_an_unreachable_broker_on_the_update(
    notify_queue, make_subscriber, declare, responder, django_capture_on_commit_callbacks
):

    make_subscriber()
    incident = declare()
    with broker_at(f"redis://127.0.0.1:{free_port()}/0"), django_capture_on_commit_callbacks(execute=True):
        update = post_update(
            incident, PostUpdate(status="identified", body={"en": "Found."}, language="en"), actor=responder
        )

    assert update.notification_outcome == KickOutcome.BROKER_UNREACHABLE
    assert Delivery.objects.filter(update=update, state=DeliveryState.PENDING).count() == 1


def test_publication_with_the_broker_up_queues_one_dispatch_per_lane(
    notify_queue, make_subscriber, declare, django_capture_on_commit_callbacks
):
    make_subscriber()
    with watch_notifications() as kicks, django_capture_on_commit_callbacks(execute=True):
        declare()

    assert kicks.outcomes == [KickOutcome.QUEUED]
    assert notify_queue.llen("notify") == len(DISPATCH_LANES)


def test_one_dispatch_per_worker_slot_when_configured(
    settings, notify_queue, make_subscriber, declare, django_capture_on_commit_callbacks
):
    settings.NOTIFY_DISPATCH_PARALLEL = 2
    make_subscriber()
    with django_capture_on_commit_callbacks(execute=True):
        declare()

    assert notify_queue.llen("notify") == 2 * len(DISPATCH_LANES)


# A real commit: the kick runs on commit, inside the editor's request, as in production.
@pytest.mark.django_db(transaction=True)
def test_the_editor_says_when_the_broker_was_unreachable(client, responder, make_subscriber, declare):
    make_subscriber()
    incident = declare()
    client.force_login(responder)
    with broker_at(f"redis://127.0.0.1:{free_port()}/0"):
        response = client.post(
            f"/editor/incidents/{incident.pk}/updates/",
            {
                "status": "identified",
                "language": "en",
                "body": "Found it.",
                "version": incident.version,
                "deliver_notifications": "on",
            },
            follow=True,
        )

    assert response.status_code == 200
    assert incident.updates.filter(body__en="Found it.").exists()
    assert str(KickOutcome.BROKER_UNREACHABLE.label) in response.content.decode()
    assert Delivery.objects.filter(state=DeliveryState.PENDING).count() == 2
