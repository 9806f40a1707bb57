"""Local receivers for the outbound cases: a loopback HTTP server that records every connection
it accepts and every request it reads (`Witness`). Star-imported by the cases, with the
subscription fixtures they send with."""

import json
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.subscriptions.chat_sinks import *  # noqa: F403 - the chat receivers are fixtures
from tests.subscriptions.chat_sinks import __all__ as chat_sinks
from tests.subscriptions.conftest import declare, free_port, make_subscriber

__all__ = ["Witness", "declare", "make_subscriber", "witness", *chat_sinks]

# A self-signed certificate for 127.0.0.1 (valid until 2126), for the one receiver that must
# speak TLS (a Matrix homeserver named by a `matrixs://` URL).
LOOPBACK_CERTIFICATE = Path(__file__).with_name("loopback-tls.pem")


class Witness(ThreadingHTTPServer):
    """A loopback HTTP server that records every connection it accepts and every request it
    reads (method, path, body), answering each from `answers` (path prefix → JSON), else 200 with
    an empty object."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, answers: dict[str, dict] | None = None, *, tls: bool = False):
        self.accepted: list[tuple[str, int]] = []
        self.requests: list[tuple[str, str, bytes]] = []
        self.answers = answers or {}
        super().__init__(("127.0.0.1", free_port()), _Answering)
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(LOOPBACK_CERTIFICATE)
            self.socket = context.wrap_socket(self.socket, server_side=True)
        self.port = self.server_address[1]
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def paths(self) -> list[str]:
        return [path for _method, path, _body in self.requests]

    def process_request(self, request, client_address):
        self.accepted.append(client_address)
        super().process_request(request, client_address)

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class _Answering(BaseHTTPRequestHandler):
    def _answer(self):
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.server.requests.append((self.command, self.path, body))
        answers = self.server.answers.items()
        answer = next((answer for prefix, answer in answers if self.path.startswith(prefix)), {})
        content = json.dumps(answer).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(content)))
        self.end_headers()
        self.wfile.write(content)

    do_GET = do_POST = do_PUT = _answer

    def log_message(self, *args):
        pass


@pytest.fixture
def witness():
    """A factory of `Witness` servers, stopped after the test."""
    servers: list[Witness] = []

    def start(answers: dict[str, dict] | None = None, *, tls: bool = False) -> Witness:
        servers.append(Witness(answers, tls=tls))
        return servers[-1]

    yield start
    for server in servers:
        server.stop()
