"""A worker process killed with SIGKILL while it posts chat messages: after the restart every
subscriber has its message, and only what was in flight at the kill arrives twice: the one
message Apprise was sending, or the one group of Slack posts (needs DATABASE_URL=postgres://…)."""

import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from incidents.channels import outbox
from incidents.channels.http_posts import CONCURRENT_POSTS
from incidents.models import Channel, Delivery, DeliveryState
from incidents.tasks import notify

from .chat_sinks import *  # noqa: F403 - the receivers are fixtures
from .test_workers import LEASE_SECONDS, database_url, past_the_lease

pytestmark = [pytest.mark.postgres, pytest.mark.system, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


def start_chat_worker(tmp_path, *, seconds: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "STATUSPAGE_VAR_DIR": str(tmp_path),
        "OUTBOUND_ALLOW_PRIVATE_TARGETS": "1",
        "NOTIFY_WEBHOOK_BATCH_SIZE": "20",
        "NOTIFY_LEASE_SECONDS": str(LEASE_SECONDS),
    }
    code = f"import django; django.setup(); from incidents.channels import outbox; outbox.deliver_due(seconds={seconds})"
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env)


def settle(sink, answering: dict, *, seconds: float = 10) -> None:
    """Waits until the requests the dead worker had sent have all arrived and been answered."""
    end = time.monotonic() + seconds
    arrived = -1
    while time.monotonic() < end:
        with sink.lock:
            quiet = arrived == len(sink.requests) and not answering["open"]
            arrived = len(sink.requests)
        if quiet:
            return
        time.sleep(0.1)
    raise AssertionError("the sink kept receiving after the worker died")


@pytest.mark.parametrize("channel", [Channel.SLACK, Channel.APPRISE])
def test_a_worker_killed_mid_batch_sends_again_only_the_messages_in_flight(
    channel, slack_sink, json_sink, make_subscriber, declare, tmp_path
):
    sink = slack_sink if channel == Channel.SLACK else json_sink
    for n in range(50):
        target = f"{sink.url}?n={n}" if channel == Channel.SLACK else f"{sink.url}/{n}"
        make_subscriber("", channel=channel, target=target)
    declare()
    worker = start_chat_worker(tmp_path, seconds=120)
    kill_at = 27  # in the second batch of 20
    handle = sink.handle
    dead = threading.Event()
    answering = {"open": 0}

    def kill_worker_at(handler):
        with sink.lock:
            sink.requests.append({"headers": dict(handler.headers), "path": handler.path, "body": b"{}"})
            arrived = len(sink.requests)
            answering["open"] += 1
        try:
            if arrived == kill_at:
                os.kill(worker.pid, signal.SIGKILL)  # the message arrived; the worker never hears "200"
            if arrived >= kill_at:
                dead.wait(timeout=30)  # the connection stays open until the worker is gone
                return
            handler.send_response(200)
            handler.end_headers()
        finally:
            with sink.lock:
                answering["open"] -= 1

    sink.handle = kill_worker_at
    assert worker.wait(timeout=120) == -signal.SIGKILL
    dead.set()
    settle(sink, answering)
    sink.handle = handle
    sent_before = Delivery.objects.filter(state=DeliveryState.SENT).count()
    # Apprise posts one message at a time; Slack posts a group of CONCURRENT_POSTS at once.
    group = 1 if channel == Channel.APPRISE else CONCURRENT_POSTS
    assert sent_before == (kill_at - 1) // group * group, (
        "everything answered before the group in flight is marked"
    )
    in_flight = {r["headers"]["X-Status-Event-Id"] for r in sink.requests[sent_before:]}
    assert 0 < len(in_flight) <= group

    with past_the_lease():
        assert notify.sweep()["released"] > 0
        outbox.deliver_due(seconds=60)

    received = Counter(request["headers"]["X-Status-Event-Id"] for request in sink.requests)
    assert set(received) == set(Delivery.objects.values_list("idempotency_key", flat=True)), (
        "nobody is missing"
    )
    assert {key for key, times in received.items() if times > 1} == in_flight
    assert max(received.values()) == 2
    assert set(Delivery.objects.values_list("state", flat=True)) == {DeliveryState.SENT}
