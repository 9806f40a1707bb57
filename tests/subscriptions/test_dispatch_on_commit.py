"""Publishing an update tells the notify worker at once, on commit: the first mail does not wait
for the periodic sweep. Runs a real Celery worker (in a thread) on the embedded file-system
broker, as `make run` does, with no scheduler: only the commit's message can make it send."""

import time

import pytest
from celery.contrib.testing.worker import start_worker
from django.core import mail
from django.db import transaction
from django.test import Client

from incidents.channels.registry import DISPATCH_LANES
from incidents.models import Delivery, DeliveryState
from statuspage.celery import app as celery_app

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def embedded_broker(tmp_path):
    """The Celery app on a file-system broker in a folder of this test; returns the folder."""
    folder, control = tmp_path / "queue", tmp_path / "control"
    folder.mkdir()
    control.mkdir()
    conf = celery_app.conf
    previous = (conf.broker_url, conf.broker_transport, conf.broker_transport_options)

    def use(url, transport, options):
        conf.broker_url, conf.broker_transport, conf.broker_transport_options = url, transport, options
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    options = {"data_folder_in": str(folder), "data_folder_out": str(folder), "control_folder": str(control)}
    use("filesystem://", "statuspage.filesystem_broker:Transport", {**options, "polling_interval": 0.1})
    yield folder
    use(*previous)


def notify_messages(folder) -> list:
    return sorted(folder.glob("*.notify.msg"))


def post_through_the_editor(responder, incident) -> None:
    client = Client()
    client.force_login(responder)
    response = client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {
            "status": "identified",
            "language": "en",
            "body": "Found it.",
            "version": incident.version,
            "deliver_notifications": "on",
        },
    )
    assert response.status_code == 302


def test_an_update_is_mailed_by_the_worker_without_waiting_for_the_sweep(
    embedded_broker, make_subscriber, declare, responder
):
    make_subscriber()
    incident = declare()
    # The declaration's mail and its message are not the point: only the update's message is left.
    Delivery.objects.update(state=DeliveryState.SENT)
    for message in notify_messages(embedded_broker):
        message.unlink()
    with start_worker(celery_app, pool="solo", perform_ping_check=False, queues=["notify"]):
        started = time.monotonic()
        post_through_the_editor(responder, incident)
        while not mail.outbox and time.monotonic() - started < 10:
            time.sleep(0.05)

    assert [m.subject for m in mail.outbox] and "Found it." in mail.outbox[0].body
    assert Delivery.objects.filter(update__body__en="Found it.", state=DeliveryState.SENT).count() == 1


def test_the_dispatch_is_queued_on_commit_and_not_for_a_rolled_back_update(
    embedded_broker, make_subscriber, declare, responder
):
    make_subscriber()
    with pytest.raises(RuntimeError), transaction.atomic():
        declare("Never published")
        assert notify_messages(embedded_broker) == []  # not before the commit
        raise RuntimeError("the request failed after the update was written")
    assert notify_messages(embedded_broker) == []
    assert not Delivery.objects.exists()

    declare()

    assert len(notify_messages(embedded_broker)) == len(DISPATCH_LANES)  # one per lane
