"""A circuit breaker per webhook and chat receiver, Apprise service and SMS provider: a receiver
that hangs costs the dispatch loop one group of timeouts (or, one message at a time through
Apprise, NOTIFY_BREAKER_FAILURES of them), not one per message; mail and the other receivers are
sent meanwhile; the messages held back keep their attempts and go out, once each, when it answers."""

import datetime as dt
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import pytest
import time_machine
from django.utils import timezone

from incidents.channels import outbox
from incidents.channels.http_posts import CONCURRENT_POSTS
from incidents.models import Channel, Delivery, DeliveryState

from .chat_sinks import *  # noqa: F403 - the receivers are fixtures
from .conftest import free_port
from .test_delivery_metrics import scraped

pytestmark = pytest.mark.django_db

TIMEOUT = 2


@pytest.fixture
def stalling_receiver(settings):
    """A webhook receiver that takes the request and never answers in time, until `answers` is set."""
    receiver = SimpleNamespace(requests=[], answers=threading.Event())

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
            if not receiver.answers.is_set():
                receiver.answers.wait(timeout=60)  # past the client's timeout: it has given up
                return
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    settings.NOTIFY_WEBHOOK_TIMEOUT_SECONDS = TIMEOUT
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}"
    yield receiver
    receiver.answers.set()
    server.shutdown()
    server.server_close()


def event_ids(requests) -> list[str]:
    return [request["headers"]["X-Status-Event-Id"] for request in requests]


def test_a_stalling_receiver_costs_one_group_of_timeouts_and_holds_back_only_its_own_messages(
    client,
    settings,
    stalling_receiver,
    webhook_receiver,
    smtp_sink,
    make_subscriber,
    make_webhook_subscriber,
    declare,
):
    for n in range(40):
        make_webhook_subscriber(f"{stalling_receiver.url}/hooks/{n}")
    make_webhook_subscriber(webhook_receiver.url)
    make_subscriber("reader@example.com")
    declare(component_statuses={})
    held_before = scraped(client, "statuspage_deliveries_total", channel="webhook", outcome="held")

    outbox.deliver_due(seconds=60)

    stalled_requests = len(stalling_receiver.requests)
    assert stalled_requests <= CONCURRENT_POSTS, "one group timed out, then the circuit opened"
    assert len(smtp_sink.messages) == 1 and len(webhook_receiver.requests) == 1
    stalled = Delivery.objects.filter(subscriber__endpoint_url__startswith=stalling_receiver.url)
    assert set(stalled.values_list("state", flat=True)) == {DeliveryState.PENDING}
    tried = stalled.filter(attempts=1)
    held = stalled.filter(attempts=0)
    # The first group may also carry the other receiver's message (the claim's order among rows
    # enqueued at once is the database's), so it holds at most CONCURRENT_POSTS of these.
    assert tried.count() == stalled_requests and held.count() == 40 - stalled_requests
    assert held.count() >= 40 - CONCURRENT_POSTS
    assert scraped(client, "statuspage_deliveries_total", channel="webhook", outcome="held") == (
        held_before + held.count()
    )
    assert all("Unreachable" in error for error in tried.values_list("last_error", flat=True))
    cooled_down = timezone.now() + dt.timedelta(seconds=settings.NOTIFY_BREAKER_COOLDOWN_SECONDS - 5)
    for delivery in held:
        assert "circuit open" in delivery.last_error and stalling_receiver.url in delivery.last_error
        assert delivery.next_attempt_at > cooled_down

    stalling_receiver.answers.set()
    cooldown = dt.timedelta(seconds=settings.NOTIFY_BREAKER_COOLDOWN_SECONDS + 1)
    with time_machine.travel(timezone.now() + cooldown, tick=True):
        outbox.deliver_due(seconds=60)
    retry = dt.timedelta(
        seconds=settings.NOTIFY_BREAKER_COOLDOWN_SECONDS + settings.NOTIFY_RETRY_BASE_SECONDS + 2
    )
    with time_machine.travel(timezone.now() + retry, tick=True):
        outbox.deliver_due(seconds=60)

    assert set(stalled.values_list("state", flat=True)) == {DeliveryState.SENT}, list(
        stalled.exclude(state="sent").values("attempts", "last_error", "next_attempt_at")
    )
    assert (
        sorted(stalled.values_list("attempts", flat=True))
        == [1] * (40 - stalled_requests) + [2] * stalled_requests
    )
    answered = event_ids(stalling_receiver.requests[stalled_requests:])
    assert len(answered) == len(set(answered)) == 40, "each message answered once"
    assert set(event_ids(stalling_receiver.requests[:stalled_requests])) <= set(answered), (
        "a message that timed out is sent again with the same event id"
    )


@pytest.mark.parametrize(("status", "tried"), [(404, 25), (503, CONCURRENT_POSTS), (429, CONCURRENT_POSTS)])
def test_only_failures_of_the_receiver_itself_open_its_circuit(
    status, tried, webhook_receiver, make_webhook_subscriber, declare
):
    """A 4xx is about one subscriber's URL (a removed hook), so the host's other subscribers are
    still posted to; a 5xx or 429 is the host failing."""
    for n in range(25):
        make_webhook_subscriber(f"{webhook_receiver.url}/{n}")
    declare(component_statuses={})
    webhook_receiver.answers = [status] * 25

    outbox.deliver_due(seconds=30)

    assert len(webhook_receiver.requests) == tried


def test_a_stalling_sms_provider_is_waited_for_until_its_circuit_opens_then_every_number_gets_one_message(
    settings, stalling_receiver, smtp_sink, make_subscriber, declare
):
    settings.SMS_APPRISE_URL = f"json://{stalling_receiver.url.removeprefix('http://')}/sms/{{number}}"
    numbers = [f"+47123456{n:02}" for n in range(6)]
    for number in numbers:
        make_subscriber("", channel=Channel.SMS, target=number)
    make_subscriber("reader@example.com")
    declare(component_statuses={})

    outbox.deliver_due(seconds=60)

    failures = settings.NOTIFY_BREAKER_FAILURES
    assert len(stalling_receiver.requests) == failures, "tried until the circuit opened, then not"
    assert len(smtp_sink.messages) == 1
    sms = Delivery.objects.filter(subscriber__channel=Channel.SMS)
    assert sorted(sms.values_list("attempts", flat=True)) == [0] * (6 - failures) + [1] * failures
    assert all(
        "circuit open" in error for error in sms.filter(attempts=0).values_list("last_error", flat=True)
    )

    stalling_receiver.answers.set()
    for seconds in (
        settings.NOTIFY_BREAKER_COOLDOWN_SECONDS + 1,
        2 * settings.NOTIFY_BREAKER_COOLDOWN_SECONDS,
    ):
        with time_machine.travel(timezone.now() + dt.timedelta(seconds=seconds), tick=True):
            outbox.deliver_due(seconds=60)

    assert set(sms.values_list("state", flat=True)) == {DeliveryState.SENT}
    answered = stalling_receiver.requests[failures:]
    assert sorted(request["path"] for request in answered) == [f"/sms/{number}" for number in numbers]


@pytest.mark.parametrize(("status", "tried"), [(404, 6), (503, 3), (429, 3)])
def test_only_failures_of_an_apprise_service_itself_open_its_circuit(
    status, tried, json_sink, make_subscriber, declare
):
    for n in range(6):
        make_subscriber("", channel=Channel.APPRISE, target=f"{json_sink.url}/{n}")
    declare(component_statuses={})
    json_sink.answers = [status] * 6

    outbox.deliver_due(seconds=30)

    assert len(json_sink.requests) == tried
