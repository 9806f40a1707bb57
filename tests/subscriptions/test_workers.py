"""Workers on PostgreSQL: concurrent claims never overlap, and a worker process killed with
SIGKILL in the middle of a batch leaves nobody missing (needs DATABASE_URL=postgres://…)."""

import asyncio
import datetime as dt
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import time_machine
from django.db import connection
from django.utils import timezone

from incidents.channels import outbox
from incidents.models import Delivery, DeliveryState
from incidents.tasks import notify

pytestmark = [pytest.mark.postgres, pytest.mark.system, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
LEASE_SECONDS = 3  # the killed worker's; the test's clock moves past it instead of waiting


def past_the_lease() -> time_machine.travel:
    return time_machine.travel(timezone.now() + dt.timedelta(seconds=LEASE_SECONDS + 1), tick=True)


def test_concurrent_workers_claim_disjoint_rows(make_subscriber, declare):
    for n in range(60):
        make_subscriber(f"r{n}@example.com")
    declare()
    claimed: list[list[int]] = []
    barrier = threading.Barrier(3)

    def worker():
        barrier.wait()
        try:
            claimed.append(outbox.claim(channel="email", size=25).ids)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    every = [pk for ids in claimed for pk in ids]
    assert len(every) == len(set(every)) == 60
    assert Delivery.objects.filter(state=DeliveryState.SENDING).count() == 60


def database_url() -> str:
    s = connection.settings_dict
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    return f"postgres://{s['USER']}{password}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def start_delivery_worker(smtp_sink, tmp_path, *, seconds: int, **settings) -> subprocess.Popen:
    """A separate process delivering due rows to the sink for `seconds`, as a notify worker does."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "EMAIL_BACKEND": "smtp",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(smtp_sink.port),
        "STATUSPAGE_VAR_DIR": str(tmp_path),
        **settings,
    }
    code = f"import django; django.setup(); from incidents.channels import outbox; outbox.deliver_due(seconds={seconds})"
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, env=env)


def message_ids(deliveries) -> set[str]:
    return {f"<{key}@127.0.0.1>" for key in deliveries.values_list("idempotency_key", flat=True)}


def unmarked_but_accepted(smtp_sink) -> set[str]:
    """After a kill: mails the server has that their worker had not marked sent, the only ones
    that may go out twice."""
    return message_ids(Delivery.objects.filter(state=DeliveryState.SENDING)) & set(smtp_sink.message_ids())


def twice(received: list[str]) -> set[str]:
    return {message_id for message_id in received if received.count(message_id) > 1}


def test_a_worker_process_killed_mid_batch_leaves_nobody_missing(
    smtp_sink, settings, make_subscriber, declare, tmp_path
):
    for n in range(300):
        make_subscriber(f"r{n:03}@example.com")
    declare()
    worker = start_delivery_worker(
        smtp_sink, tmp_path, seconds=120, NOTIFY_BATCH_SIZE="100", NOTIFY_LEASE_SECONDS=str(LEASE_SECONDS)
    )
    kill_at = 130  # in the second batch, before it is marked
    original = smtp_sink.handle_DATA

    async def kill_worker_at(server, session, envelope):
        answer = await original(server, session, envelope)
        if len(smtp_sink.messages) == kill_at:
            os.kill(worker.pid, signal.SIGKILL)  # before the worker hears "250 OK"
        return answer

    smtp_sink.handle_DATA = kill_worker_at
    assert worker.wait(timeout=120) == -signal.SIGKILL
    smtp_sink.handle_DATA = original
    stranded = Delivery.objects.filter(state=DeliveryState.SENDING).count()
    window = unmarked_but_accepted(smtp_sink)
    assert stranded > 0

    with past_the_lease():
        assert notify.sweep()["released"] == stranded
        outbox.deliver_due(seconds=60)

    received = smtp_sink.message_ids()
    assert set(received) == message_ids(Delivery.objects.all()), "nobody is missing"
    assert twice(received) == window, "only accepted mails the killed worker had not marked went twice"
    assert 0 < len(window) <= 100, "at most the batch in flight"
    assert all(received.count(message_id) == 2 for message_id in window)
    assert set(Delivery.objects.values_list("state", flat=True)) == {DeliveryState.SENT}


def test_a_worker_killed_while_a_slow_server_takes_its_batch_sends_again_only_mail_since_its_last_mark(
    smtp_sink, settings, make_subscriber, declare, tmp_path
):
    # A server some network away takes a while per mail: accepted mails are marked sent at least
    # every MARK_WITHIN_SECONDS, so a crash late in a long batch repeats only the last interval's.
    rcpt_delay = 0.15
    for n in range(30):
        make_subscriber(f"f{n:02}@example.com")
    declare()
    worker = start_delivery_worker(smtp_sink, tmp_path, seconds=60, NOTIFY_LEASE_SECONDS="30")
    kill_at = 20
    accept_rcpt, accept_data = smtp_sink.handle_RCPT, smtp_sink.handle_DATA

    async def slow_rcpt(server, session, envelope, address, rcpt_options):
        await asyncio.sleep(rcpt_delay)
        return await accept_rcpt(server, session, envelope, address, rcpt_options)

    async def kill_worker_at(server, session, envelope):
        answer = await accept_data(server, session, envelope)
        if len(smtp_sink.messages) == kill_at:
            os.kill(worker.pid, signal.SIGKILL)  # the server has the mail; the worker never hears "250"
        return answer

    smtp_sink.handle_RCPT, smtp_sink.handle_DATA = slow_rcpt, kill_worker_at
    assert worker.wait(timeout=60) == -signal.SIGKILL
    smtp_sink.handle_RCPT, smtp_sink.handle_DATA = accept_rcpt, accept_data
    window = unmarked_but_accepted(smtp_sink)
    assert Delivery.objects.filter(state=DeliveryState.SENT).count() == kill_at - len(window) > 0

    Delivery.objects.filter(state=DeliveryState.SENDING).update(lease_until=timezone.now())
    notify.sweep()
    outbox.deliver_due(seconds=60)

    received = smtp_sink.message_ids()
    assert len(set(received)) == 30, "nobody is missing"
    assert twice(received) == window
    assert 0 < len(window) <= outbox.MARK_WITHIN_SECONDS / rcpt_delay + 2, "not the whole batch"
