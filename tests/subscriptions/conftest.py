"""Fixtures for subscriptions: subscribers, an incident to post to, a local SMTP sink and a
local webhook receiver (both on 127.0.0.1 ports 8600–8699, each parallel worker in its own share)."""

import email
import email.policy
import json
import logging
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from aiosmtpd.controller import Controller
from django.utils import timezone

from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident
from incidents.models import Channel, Subscriber
from tests.conftest import worker_ports

# aiosmtpd logs every SMTP command at INFO; failures are easier to read without them.
logging.getLogger("mail.log").setLevel(logging.WARNING)


def free_port() -> int:
    ports = worker_ports(8600, 8700)
    for port in ports:
        with socket.socket() as sock:
            # As the sinks bind (both reuse addresses): a port whose last connections are still
            # in TIME_WAIT is free for them, and a strict check exhausts a worker's 50 ports.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {ports.start}-{ports.stop - 1}")


class SinkHandler:
    """Accepts mail, keeps it parsed; can refuse the next N recipients with a 4xx. Offers
    PIPELINING, 8BITMIME and SMTPUTF8, as real mail servers do."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []
        self.raw: list[bytes] = []  # the bytes as they arrived, for checks of header encoding
        self.refuse_next = 0
        self.refusal = "451 4.3.0 Try again later"

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        session.host_name = hostname
        return [*responses[:-1], "250-PIPELINING", responses[-1]]

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if self.refuse_next > 0:
            self.refuse_next -= 1
            return self.refusal
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.raw.append(envelope.content)
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 OK"

    def message_ids(self) -> list[str]:
        return [m["Message-ID"] for m in self.messages]


@pytest.fixture
def smtp_sink(settings):
    yield from serving(SinkHandler(), settings)


def serving(handler, settings):
    """Runs `handler` as a local SMTP server that the default mailer sends to, until the test ends."""
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, enable_SMTPUTF8=True)
    controller.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "use_tls": False, "timeout": 10},
        }
    }
    handler.port = port
    yield handler
    controller.stop()


class Receiver:
    def __init__(self):
        self.requests: list[dict] = []
        self.answers: list[int] = []  # status codes to answer with, in order; then 200

    def next_status(self) -> int:
        return self.answers.pop(0) if self.answers else 200


@pytest.fixture
def webhook_receiver(settings):
    receiver = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
            self.send_response(receiver.next_status())
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hooks/status"
    yield receiver
    server.shutdown()
    server.server_close()


def parsed_json(request) -> dict:
    return json.loads(request["body"])


@pytest.fixture
def https_site(settings):
    settings.SITE_URL = "https://status.acme.example"
    settings.DEFAULT_FROM_EMAIL = "Acme Status <status@acme.example>"
    settings.EMAIL_REPLY_TO = "support@acme.example"


@pytest.fixture
def make_subscriber(db):
    def make(email="reader@example.com", *, language="en", components=(), confirmed=True, **fields):
        subscriber = Subscriber.objects.create(
            email=email,
            language=language,
            all_components=not components,
            confirmed_at=timezone.now() if confirmed else None,
            **fields,
        )
        subscriber.components.set(components)
        return subscriber

    return make


@pytest.fixture
def make_webhook_subscriber(make_subscriber):
    def make(url, **fields):
        return make_subscriber("hooks@example.com", channel=Channel.WEBHOOK, endpoint_url=url, **fields)

    return make


@pytest.fixture
def declare(responder, component):
    def declare_(title="Delayed webhook deliveries", *, body="Webhooks are delayed.", language="en", **kw):
        kw.setdefault("component_statuses", {component: "degraded_performance"})
        return declare_incident(
            DeclareIncident(title=title, language=language, body=body, **kw), actor=responder
        )

    return declare_
