"""Outgoing webhooks: Statuspage's payload, the signature, retries, and the address guard."""

import datetime as dt
import hmac
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import time_machine
from django.utils import timezone

from incidents.channels import outbox
from incidents.channels.webhook import sign
from incidents.models import Delivery, DeliveryState
from incidents.outbound.guard import check_url
from tests.outbound.rebinding import RebindingDns

from .conftest import parsed_json

pytestmark = pytest.mark.django_db


def verify_signature(
    secret: str, *, timestamp: str, body: bytes, signature: str, tolerance_seconds: int = 300
) -> bool:
    """What a receiver does: recompute the signature and refuse stale (replayed) timestamps."""
    try:
        sent_at = int(timestamp)
    except (TypeError, ValueError):
        return False
    if abs(time.time() - sent_at) > tolerance_seconds:
        return False
    # Compared as bytes: compare_digest refuses str holding anything but ASCII with a TypeError.
    given = (signature or "").encode("utf-8", "surrogateescape")
    return hmac.compare_digest(sign(secret, sent_at, body).encode(), given)


def signature_is_valid(subscriber, request) -> bool:
    headers = request["headers"]
    return verify_signature(
        subscriber.webhook_secret,
        timestamp=headers["X-Status-Timestamp"],
        body=request["body"],
        signature=headers["X-Status-Signature"],
    )


def test_endpoint_answering_500_then_200_is_retried_with_a_valid_signature(
    webhook_receiver, make_webhook_subscriber, declare
):
    subscriber = make_webhook_subscriber(webhook_receiver.url)
    declare(component_statuses={})
    webhook_receiver.answers = [500]

    outbox.deliver_due(seconds=30)

    delivery = Delivery.objects.get()
    assert (delivery.state, delivery.attempts) == (DeliveryState.PENDING, 1)
    assert "HTTP 500" in delivery.last_error
    assert signature_is_valid(subscriber, webhook_receiver.requests[0])
    with time_machine.travel(timezone.now() + dt.timedelta(minutes=5), tick=True):
        outbox.deliver_due(seconds=30)
        first, second = webhook_receiver.requests
        assert signature_is_valid(subscriber, second)
    assert first["headers"]["X-Status-Event-Id"] == second["headers"]["X-Status-Event-Id"]
    assert first["headers"]["X-Status-Event-Id"] == delivery.idempotency_key
    delivery.refresh_from_db()
    assert delivery.state == DeliveryState.SENT


def test_a_tampered_or_replayed_body_fails_verification(webhook_receiver, make_webhook_subscriber, declare):
    subscriber = make_webhook_subscriber(webhook_receiver.url)
    declare(component_statuses={})
    outbox.deliver_due(seconds=30)
    [request] = webhook_receiver.requests
    headers = request["headers"]

    tampered = request["body"].replace(b"Delayed", b"Healthy")
    assert not verify_signature(
        subscriber.webhook_secret,
        timestamp=headers["X-Status-Timestamp"],
        body=tampered,
        signature=headers["X-Status-Signature"],
    )
    with time_machine.travel(timezone.now() + dt.timedelta(minutes=10)):
        assert not verify_signature(
            subscriber.webhook_secret,
            timestamp=headers["X-Status-Timestamp"],
            body=request["body"],
            signature=headers["X-Status-Signature"],
        )


def test_payload_follows_statuspages_webhook_format(webhook_receiver, make_webhook_subscriber, declare):
    make_webhook_subscriber(webhook_receiver.url)
    incident = declare()

    outbox.deliver_due(seconds=30)

    payloads = [parsed_json(request) for request in webhook_receiver.requests]
    [payload] = [p for p in payloads if "incident" in p]
    assert set(payload) == {"meta", "page", "incident"}
    assert {"unsubscribe", "documentation"} <= set(payload["meta"])
    assert payload["page"]["status_indicator"] == "minor"
    assert payload["page"]["status_description"] == "Partially Degraded Service"
    assert len(payload["page"]["id"]) == 12
    body = payload["incident"]
    assert body["id"] == incident.public_id
    assert (body["name"], body["status"], body["impact"]) == (
        "Delayed webhook deliveries",
        "investigating",
        "minor",
    )
    [update] = body["incident_updates"]
    assert update["body"] == "Webhooks are delayed."
    assert update["affected_components"] == [
        {
            "code": incident.components.get().public_id,
            "name": "Core - Webhook delivery",
            "old_status": "operational",
            "new_status": "degraded_performance",
        }
    ]
    assert body["components"][0]["status"] == "degraded_performance"
    assert body["created_at"].endswith("Z")


def test_endpoint_answering_410_is_not_retried(webhook_receiver, make_webhook_subscriber, declare):
    make_webhook_subscriber(webhook_receiver.url)
    declare(component_statuses={})
    webhook_receiver.answers = [410]

    outbox.deliver_due(seconds=30)

    assert Delivery.objects.get().state == DeliveryState.FAILED


@pytest.mark.parametrize("url", ["http://169.254.169.254/latest/meta-data", "http://127.0.0.1:8699/hook"])
def test_address_guard_keeps_webhooks_off_internal_targets(settings, make_webhook_subscriber, declare, url):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False
    make_webhook_subscriber(url)
    declare(component_statuses={})

    outbox.deliver_due(seconds=30)

    delivery = Delivery.objects.get()
    assert delivery.state == DeliveryState.FAILED
    assert "Address refused" in delivery.last_error


def test_failed_deliveries_are_listed_for_staff_only(
    client, viewer, outsider, admin, make_webhook_subscriber, declare
):
    make_webhook_subscriber("http://169.254.169.254/")
    declare()
    outbox.deliver_due(seconds=30)

    assert client.get("/editor/deliveries/").status_code == 302
    client.force_login(outsider)
    assert client.get("/editor/deliveries/").status_code == 403
    client.force_login(viewer)
    response = client.get("/editor/deliveries/")
    assert response.status_code == 200
    assert b"169.254.169.254" not in response.content  # webhook URLs often embed a secret
    assert b"Cloud metadata addresses are never allowed" not in response.content
    assert b"Retry" not in response.content  # viewers read; responders retry
    client.force_login(admin)
    response = client.get("/editor/deliveries/")
    assert b"169.254.169.254" in response.content
    assert b"Cloud metadata addresses are never allowed" in response.content


def test_responder_can_retry_a_failed_delivery(client, responder, make_webhook_subscriber, declare):
    make_webhook_subscriber("http://169.254.169.254/")
    declare(component_statuses={})
    outbox.deliver_due(seconds=30)
    delivery = Delivery.objects.get()
    client.force_login(responder)

    response = client.post(f"/editor/deliveries/{delivery.pk}/retry/")

    assert response.status_code == 302
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts) == (DeliveryState.PENDING, 0)
    assert delivery.last_error == ""


def test_a_webhook_host_rebound_to_loopback_after_subscribing_gets_nothing(
    webhook_receiver, make_webhook_subscriber, declare, settings, monkeypatch
):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False
    dns = RebindingDns(monkeypatch)
    url = dns.url(int(webhook_receiver.url.split(":")[2].split("/")[0]), "/hooks/status")
    check_url(url)  # what subscribing checks: the name answers a public address
    make_webhook_subscriber(url)
    declare(component_statuses={})
    dns.rebind("127.0.0.1")

    outbox.deliver_due(seconds=30)

    delivery = Delivery.objects.get()
    assert delivery.state == DeliveryState.FAILED
    assert delivery.last_error.startswith("Address refused: 127.0.0.1 is a private or loopback address")
    assert dns.lookups >= 2
    assert webhook_receiver.requests == []


def test_a_webhook_host_rebound_to_a_metadata_address_is_refused_with_private_targets_allowed(
    webhook_receiver, make_webhook_subscriber, declare, monkeypatch
):
    dns = RebindingDns(monkeypatch)
    # Port 9 (discard): were the guard to let this through, no HTTP request would reach a real
    # metadata service of the machine running the tests.
    make_webhook_subscriber(dns.url(9, "/hook"))
    declare(component_statuses={})
    dns.rebind("::ffff:169.254.169.254")

    outbox.deliver_due(seconds=30)

    delivery = Delivery.objects.get()
    assert delivery.state == DeliveryState.FAILED
    assert delivery.last_error == "Address refused: Cloud metadata addresses are never allowed."


@pytest.fixture
def second_receiver(webhook_receiver):
    """A receiver on 127.0.0.2, on the same port as `webhook_receiver` (on 127.0.0.1)."""
    received = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            received.append(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    port = int(webhook_receiver.url.split(":")[2].split("/")[0])
    server = ThreadingHTTPServer(("127.0.0.2", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield port, received
    server.shutdown()
    server.server_close()


def test_a_webhook_goes_to_the_address_that_was_checked_not_to_a_later_answer(
    webhook_receiver, second_receiver, make_webhook_subscriber, declare, monkeypatch
):
    # Private targets allowed: 127.0.0.2 may be called; 0.0.0.0 never (Linux connects it to
    # its own loopback, here to `webhook_receiver`). The name answers 127.0.0.2 once, then
    # 0.0.0.0: checking the name and connecting with a second lookup would reach 0.0.0.0.
    port, received = second_receiver
    dns = RebindingDns(monkeypatch)
    make_webhook_subscriber(dns.url(port, "/hooks/status"))
    declare(component_statuses={})
    dns.rebind("127.0.0.2", "0.0.0.0")

    outbox.deliver_due(seconds=30)

    assert Delivery.objects.get().state == DeliveryState.SENT
    assert len(received) == 1
    assert webhook_receiver.requests == []
