"""Local receivers that stand in for chat services and an SMS gateway, and check what they get
as the real services do: a Slack-compatible sink refuses messages outside Block Kit's rules
(as Slack answers 400 `invalid_blocks` / `no_text`), a Teams sink refuses what is not an
Adaptive Card message, and a plain JSON sink records what Apprise's `json://` posts."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from .conftest import free_port

__all__ = ["chat_sink", "json_sink", "slack_sink", "sms_gateway", "teams_sink"]

SLACK_BLOCK_TYPES = {"header", "section", "context", "divider", "actions"}


def slack_problems(payload: dict) -> list[str]:
    """What Slack would refuse in an incoming-webhook message (empty when it is valid)."""
    problems = []
    if not isinstance(payload.get("text"), str) or not payload["text"].strip():
        problems.append("no_text")
    blocks = payload.get("blocks", [])
    if len(blocks) > 50:
        problems.append("more than 50 blocks")
    for block in blocks:
        kind = block.get("type")
        if kind not in SLACK_BLOCK_TYPES:
            problems.append(f"unknown block {kind}")
        elif kind == "header":
            text = block["text"]
            if text["type"] != "plain_text" or not 0 < len(text["text"]) <= 150:
                problems.append("header text")
        elif kind == "section":
            if "text" in block and not 0 < len(block["text"]["text"]) <= 3000:
                problems.append("section text length")
            fields = block.get("fields", [])
            if len(fields) > 10 or any(not 0 < len(field["text"]) <= 2000 for field in fields):
                problems.append("section fields")
            if "text" not in block and not fields:
                problems.append("empty section")
        elif kind == "context":
            if not 0 < len(block["elements"]) <= 10:
                problems.append("context elements")
        elif kind == "actions":
            for element in block["elements"]:
                if element["type"] != "button" or len(element["text"]["text"]) > 75 or "url" not in element:
                    problems.append("button")
    return problems


def teams_problems(payload: dict) -> list[str]:
    """The basics of the Adaptive Card schema a Teams webhook checks."""
    problems = []
    if payload.get("type") != "message":
        problems.append("type is not message")
    attachments = payload.get("attachments") or []
    if len(attachments) != 1:
        return [*problems, "one attachment expected"]
    attachment = attachments[0]
    if attachment.get("contentType") != "application/vnd.microsoft.card.adaptive":
        problems.append("contentType")
    card = attachment.get("content") or {}
    if card.get("type") != "AdaptiveCard" or not card.get("version"):
        problems.append("not an AdaptiveCard with a version")
    for element in card.get("body", []):
        if element.get("type") not in {"TextBlock", "FactSet", "ColumnSet", "Container"}:
            problems.append(f"element {element.get('type')}")
        if element.get("type") == "TextBlock" and not isinstance(element.get("text"), str):
            problems.append("TextBlock without text")
        if element.get("type") == "FactSet" and any(set(f) != {"title", "value"} for f in element["facts"]):
            problems.append("fact")
    for action in card.get("actions", []):
        if action.get("type") != "Action.OpenUrl" or not action.get("url"):
            problems.append("action")
    return problems


class Sink:
    """Records POSTs; answers the statuses queued in `answers`, then `ok_status`; a body the
    `check` finds problems in is answered 400 with them, like the real service."""

    def __init__(self, check=None, ok_status=200):
        self.check = check
        self.ok_status = ok_status
        self.requests: list[dict] = []
        self.refused: list[list[str]] = []
        self.answers: list[int] = []
        self.lock = threading.Lock()

    def handle(self, handler: BaseHTTPRequestHandler) -> None:
        body = handler.rfile.read(int(handler.headers.get("Content-Length", 0)))
        with self.lock:
            problems = self.check(json.loads(body)) if self.check else []
            if problems:
                self.refused.append(problems)
                status = 400
            else:
                self.requests.append({"path": handler.path, "headers": dict(handler.headers), "body": body})
                status = self.answers.pop(0) if self.answers else self.ok_status
        handler.send_response(status)
        handler.end_headers()
        handler.wfile.write(b"ok" if status < 300 else b"invalid_blocks" if problems else b"error")

    def payloads(self) -> list[dict]:
        return [json.loads(request["body"]) for request in self.requests]


def serve(sink: Sink):
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            sink.handle(self)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", free_port()), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sink.port = server.server_address[1]
    sink.base = f"127.0.0.1:{sink.port}"
    return server


@pytest.fixture
def chat_sink(settings):
    """A factory of sinks on loopback (the outbound guard lets them through for the test)."""
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    servers = []

    def make(check=None, ok_status=200) -> Sink:
        sink = Sink(check, ok_status)
        servers.append(serve(sink))
        return sink

    yield make
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def slack_sink(chat_sink):
    sink = chat_sink(slack_problems)
    sink.url = f"http://{sink.base}/services/T000/B000/XXXXsecret"
    return sink


@pytest.fixture
def teams_sink(chat_sink):
    sink = chat_sink(teams_problems, ok_status=202)
    sink.url = f"http://{sink.base}/workflows/abc/triggers/manual/paths/invoke?sig=secret"
    return sink


@pytest.fixture
def json_sink(chat_sink):
    sink = chat_sink()
    sink.url = f"json://{sink.base}/notify"
    return sink


@pytest.fixture
def sms_gateway(chat_sink, settings):
    """An SMS gateway stand-in: the provider URL posts JSON with the number in the path."""
    sink = chat_sink()
    settings.SMS_APPRISE_URL = f"json://{sink.base}/sms/{{number}}"
    return sink
