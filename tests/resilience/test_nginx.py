"""The shipped nginx configuration in front of a stand-in app: public responses kept a few
seconds, editor and no-store responses never, a change reaching readers within the bound
docs/resilience.md states, and the snapshot when the app is down."""

import gzip
import http.server
import os
import pwd
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

DEPLOY = Path(__file__).resolve().parents[2] / "deploy/nginx"

pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(not shutil.which("nginx"), reason="nginx is not installed"),
]


class StandInApp(http.server.ThreadingHTTPServer):
    """Answers every GET with its path and a count, and the Cache-Control the path names;
    under /page/, with what the page says now, when it was rendered and its ETag, after `delay`."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), StandInHandler)
        self.requests = 0
        self.encodings_asked: list[str | None] = []
        self.page_says = "first"
        self.delay = 0.0
        self.revalidations = 0


class StandInHandler(http.server.BaseHTTPRequestHandler):
    CONTROLS = {"/": "public, no-cache", "/history/": "no-store", "/editor/": None}

    def do_GET(self):
        self.server.requests += 1
        self.server.encodings_asked.append(self.headers.get("Accept-Encoding"))
        if self.path.startswith("/page/"):
            return self.page()
        body = f"app {self.path} {self.server.requests}".encode()
        if self.path.startswith("/long/"):
            body += b" status" * 1000
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        control = self.CONTROLS.get(self.path.split("?")[0], "public, no-cache")
        if control:
            self.send_header("Cache-Control", control)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        time.sleep(self.server.delay)
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(202)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def page(self):
        time.sleep(self.server.delay)
        says = self.server.page_says
        etag = f'"{says}"'
        if self.headers.get("If-None-Match") == etag:
            self.server.revalidations += 1
            self.send_response(304)
            self.send_header("Cache-Control", "public, no-cache")
            self.send_header("ETag", etag)
            self.end_headers()
            return
        body = f"{says} rendered-at={time.time():.3f}".encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Cache-Control", "public, no-cache")
        self.send_header("ETag", etag)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def snapshot(tmp_path):
    root = tmp_path / "snapshot"
    for relative, text in {
        "index.html": "snapshot overview",
        "404.html": "snapshot not found",
        "ru/index.html": "снимок",
        "ru/404.html": "снимок: нет такой страницы",
        "history/page/2/index.html": "snapshot history page 2",
    }.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    return root


@pytest.fixture
def app():
    server = StandInApp()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def nginx(tmp_path, snapshot, app):
    """nginx with deploy/nginx/statuspage.conf, as scripts/bench_stack.py rewrites it."""
    port, scratch = free_port(), tmp_path / "nginx"
    scratch.mkdir()
    server = (DEPLOY / "statuspage.conf").read_text()
    server = re.sub(r"listen 80;.*", f"listen 127.0.0.1:{port};", server)
    server = re.sub(r"server 127.0.0.1:8000;.*", f"server 127.0.0.1:{app.server_address[1]};", server)
    server = server.replace(
        "proxy_cache_path /var/cache/nginx/statuspage ", f"proxy_cache_path {scratch}/cache "
    )
    server = re.sub(r"root /srv/statuspage/snapshot/current;.*", f"root {snapshot};", server)
    (scratch / "statuspage.conf").write_text(server)
    (scratch / "nginx.conf").write_text(
        f"user {pwd.getpwuid(os.getuid()).pw_name};\nworker_processes 1;\npid {scratch}/nginx.pid;\n"
        f"error_log {scratch}/error.log warn;\ndaemon off;\nevents {{ worker_connections 64; }}\n"
        f"http {{ access_log off; client_body_temp_path {scratch}/body; proxy_temp_path {scratch}/proxy;\n"
        f"fastcgi_temp_path {scratch}/fastcgi; uwsgi_temp_path {scratch}/uwsgi; scgi_temp_path {scratch}/scgi;\n"
        f"include {DEPLOY}/languages.conf; include {scratch}/statuspage.conf; }}\n"
    )
    process = subprocess.Popen(["nginx", "-p", str(scratch), "-c", str(scratch / "nginx.conf")])
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=10)


def get(url: str, **headers) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_a_public_page_is_answered_by_nginx_while_its_copy_is_fresh(nginx, app):
    assert get(f"{nginx}/") == (200, "app / 1")
    assert get(f"{nginx}/") == (200, "app / 1")
    assert app.requests == 1


def test_each_language_has_its_own_copy(nginx, app):
    get(f"{nginx}/incidents/x/")
    get(f"{nginx}/incidents/x/", **{"Accept-Language": "ru"})
    assert app.requests == 2


def test_nginx_asks_the_app_for_identity_and_compresses_the_kept_copy_itself(nginx, app):
    request = urllib.request.Request(f"{nginx}/long/", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=10) as response:
        compressed = response.headers["Content-Encoding"], gzip.decompress(response.read())
    plain = get(f"{nginx}/long/")

    assert app.encodings_asked == [None]  # one request, without the reader's Accept-Encoding
    assert compressed == ("gzip", plain[1].encode())
    assert plain[1].startswith("app /long/ 1 status")


def test_no_store_and_editor_responses_always_reach_the_app(nginx, app):
    for _ in range(2):
        get(f"{nginx}/history/?page=abc")
        get(f"{nginx}/editor/")
    assert app.requests == 4


def test_with_the_app_down_a_kept_page_is_served_stale(nginx, app):
    get(f"{nginx}/components/api/")
    app.shutdown()
    app.server_close()
    assert get(f"{nginx}/components/api/") == (200, "app /components/api/ 1")


def test_with_the_app_down_pages_come_from_the_snapshot(nginx, app):
    app.shutdown()
    app.server_close()
    assert get(f"{nginx}/") == (200, "snapshot overview")
    assert get(f"{nginx}/history/?page=2") == (200, "snapshot history page 2")
    assert get(f"{nginx}/", **{"Accept-Language": "ru"}) == (200, "снимок")
    assert get(f"{nginx}/no-such-page/") == (404, "snapshot not found")
    assert get(f"{nginx}/ru/no-such-page/") == (404, "снимок: нет такой страницы")


# docs/resilience.md, "Freshness": a copy is current for 1 s, which nginx counts in whole
# seconds (up to 2), and the app has 10 s to answer.
NGINX_FRESH_SECONDS = 2
NGINX_READ_TIMEOUT_SECONDS = 10


def rendered_at(body: str) -> float:
    return float(body.rsplit("rendered-at=", 1)[1])


def test_a_change_reaches_readers_through_nginx_within_the_bound(nginx, app):
    get(f"{nginx}/page/")
    app.page_says = "second"
    changed = time.monotonic()

    while "second" not in get(f"{nginx}/page/")[1]:
        assert time.monotonic() - changed <= NGINX_FRESH_SECONDS + 0.5, "nginx still serves the old page"
        time.sleep(0.05)


def test_nginx_revalidates_an_expired_copy_with_the_apps_etag(nginx, app):
    first = get(f"{nginx}/page/")[1]
    time.sleep(NGINX_FRESH_SECONDS)
    deadline = time.monotonic() + 3

    while app.revalidations == 0:
        assert get(f"{nginx}/page/")[1] == first
        assert time.monotonic() < deadline, "nginx did not ask the app again"
        time.sleep(0.05)
    assert get(f"{nginx}/page/")[1] == first  # the 304 renewed the kept copy
    assert app.requests == 2  # the first render and one conditional request


def test_while_the_app_is_slow_but_up_no_reader_gets_a_copy_older_than_the_bound(nginx, app):
    get(f"{nginx}/page/")
    app.page_says = "second"
    app.delay = NGINX_READ_TIMEOUT_SECONDS - 3  # far slower than a copy stays current, within the timeout
    slowed = time.time()
    oldest = 0.0
    body = ""
    while rendered_at(body or "rendered-at=0") < slowed:  # until a slow render reaches readers
        status, body = get(f"{nginx}/page/")
        assert status == 200
        oldest = max(oldest, time.time() - rendered_at(body))
        assert oldest <= NGINX_FRESH_SECONDS + NGINX_READ_TIMEOUT_SECONDS
        time.sleep(0.1)

    assert body.startswith("second")
    assert oldest > NGINX_FRESH_SECONDS  # readers did get the expired copy while the app answered


def test_a_write_slower_than_a_page_may_be_still_gets_the_apps_answer(nginx, app):
    app.delay = NGINX_READ_TIMEOUT_SECONDS + 0.5  # a pushed sample waiting on a busy database
    request = urllib.request.Request(f"{nginx}/probes/push/x/", data=b'{"value": 1}', method="POST")

    with urllib.request.urlopen(request, timeout=20) as response:
        assert (response.status, response.read()) == (202, b'{"value": 1}')
