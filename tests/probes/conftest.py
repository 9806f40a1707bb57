"""Fixtures for probe tests: probes of each kind, local HTTP targets, and a real probe system
(a Celery worker consuming the `probes` queue, plus the beat scheduler) for `redis` tests."""

import asyncio
import datetime as dt
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
from django.utils import timezone

from incidents.models import Metric, Probe, ProbeKind, StatusMode
from incidents.services.probes import issue_push_token, save_probe
from incidents.services.regions import forget_regions
from tests.processes import database_url, share_test_database_with_processes

ROOT = Path(__file__).resolve().parent.parent.parent
# Engines under test store each result at once, instead of gathering results for seconds first.
QUICK_WRITES = 0.05

# The engine's threads and worker subprocesses share the test database.
share_test_database_with_processes()


@pytest.fixture(autouse=True)
def _regions_read_afresh():
    # Each test's database has regions of its own, under the same names as the last test's.
    forget_regions()


@pytest.fixture(autouse=True)
def _probe_settings(settings):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    settings.PROBE_MIN_INTERVAL = 1
    settings.PROBE_RECOVERY_EVALUATIONS = 3
    settings.PROBE_BREAKER_FAILURES = 2
    settings.PROBE_DISPATCH_EVERY = 1


@pytest.fixture
def automatic_component(make_component):
    return make_component("webhooks", name={"en": "Webhook delivery"}, status_mode=StatusMode.AUTOMATIC)


@pytest.fixture
def make_metric():
    def make(component, slug="delay", **fields):
        fields = {
            "name": {"en": slug.title()},
            "unit": "ms",
            "window": 3,
            "expected_interval": 10,
            "degraded_threshold": 100,
            "partial_outage_threshold": 500,
            "major_outage_threshold": 1000,
            **fields,
        }
        return Metric.objects.create(component=component, slug=slug, **fields)

    return make


@pytest.fixture
def make_probe(make_metric, automatic_component):
    def make(kind=ProbeKind.HTTP, *, url="", metric=None, due_now=True, **fields):
        metric = metric or make_metric(automatic_component, slug=f"m-{Probe.objects.count()}")
        fields.setdefault("name", f"{kind} probe")
        probe = Probe(kind=kind, metric=metric, url=url, **fields)
        probe = save_probe(probe, actor=None)
        if due_now and probe.is_scheduled:
            Probe.objects.filter(pk=probe.pk).update(next_run_at=timezone.now())
            probe.refresh_from_db()
        return probe

    return make


@pytest.fixture
def push_probe(make_probe):
    probe = make_probe(ProbeKind.PUSH, interval=60)
    probe.token = issue_push_token(probe, actor=None)
    return probe


class Targets:
    """A local HTTP server whose paths behave as told: /ok, /slow/<seconds>, /hang, /status/<code>,
    /metrics (Prometheus text from `self.exposition`), and /trigger (calls `self.on_trigger`)."""

    def __init__(self):
        self.port = 0
        self.exposition = ""
        self.on_trigger = None
        self.active = 0
        self.peak = 0
        self.requests: list[str] = []
        self.heads: list[bytes] = []  # request line and headers of every request, as received
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        if not self.ready.wait(10):
            raise RuntimeError("the target server could not listen")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _serve(self):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", 0))
        self.port = self.server.sockets[0].getsockname()[1]
        self.ready.set()
        self.loop.run_forever()

    async def _handle(self, reader, writer):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                request_line = head.split(b"\r\n", 1)[0].decode()
                method, path = request_line.split(" ")[:2]
                length = 0
                for line in head.split(b"\r\n")[1:]:
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":")[1])
                body = await reader.readexactly(length) if length else b""
                self.requests.append(path)
                self.heads.append(head)
                self.active += 1
                self.peak = max(self.peak, self.active)
                try:
                    status, payload = await self._respond(method, path, body)
                finally:
                    self.active -= 1
                writer.write(
                    f"HTTP/1.1 {status} X\r\nContent-Length: {len(payload)}\r\n\r\n".encode() + payload
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def _respond(self, method, path, body):
        path = path.split("?")[0]
        if path.startswith("/slow/"):
            await asyncio.sleep(float(path.split("/")[2]))
            return 200, b"ok"
        if path.startswith("/hang"):
            await asyncio.sleep(3600)
        if path.startswith("/status/"):
            return int(path.split("/")[2]), b"nope"
        if path == "/metrics":
            return 200, self.exposition.encode()
        if path == "/trigger":
            if self.on_trigger:
                threading.Thread(target=self.on_trigger, args=(body,), daemon=True).start()
            return 202, b"accepted"
        return 200, b"ok all good"

    def close(self):
        async def shut():
            self.server.close()
            others = asyncio.all_tasks() - {asyncio.current_task()}
            for task in others:
                task.cancel()
            await asyncio.gather(*others, return_exceptions=True)
            self.loop.stop()

        self.loop.call_soon_threadsafe(lambda: self.loop.create_task(shut()))
        self.thread.join(5)


@pytest.fixture
def targets():
    server = Targets()
    yield server
    server.close()


class QuietHandler(WSGIRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def live_receiver(transactional_db):
    """The Django app served on 127.0.0.1 by a real HTTP server (for the webhook receiver)."""
    server = ThreadedWSGIServer(("127.0.0.1", 0), QuietHandler)
    port = server.server_address[1]
    server.set_app(WSGIHandler())
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.shutdown()
    server.server_close()


class ProbeSystem:
    """Celery processes of the probe system, started as a deployment would start them."""

    def __init__(self, tmp_path: Path):
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "REDIS_URL": settings.REDIS_URL,
            # One deployment, one key: region keys the test derives are the ones the workers derive.
            "SECRET_KEY": settings.SECRET_KEY,
            "STATUSPAGE_VAR_DIR": str(tmp_path),
            "OUTBOUND_ALLOW_PRIVATE_TARGETS": "1",
            "PROBE_DISPATCH_EVERY": "1",
            "PROBE_MIN_INTERVAL": "1",
            "PROBE_BREAKER_FAILURES": "2",
            "PROBE_RECOVERY_EVALUATIONS": "3",
            "LOG_LEVEL": "WARNING",
        }
        self.tmp_path = tmp_path
        self.processes: dict[str, subprocess.Popen] = {}

    def start(self, name: str, args: list[str], *, env: dict[str, str] | None = None) -> subprocess.Popen:
        log = open(self.tmp_path / f"{name}.log", "ab")
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "statuspage", *args],
            cwd=ROOT,
            env=env or self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes[name] = process
        return process

    def start_worker(self, name: str = "worker") -> subprocess.Popen:
        return self.start(
            name,
            ["worker", "-Q", "probes", "-c", "1", "-n", f"{name}@%h", "--without-gossip", "--without-mingle"],
        )

    def start_region_worker(self, region: str, key: str) -> subprocess.Popen:
        """A worker of another region, as a region starts one: the broker and the region's key
        only (no DATABASE_URL: the database is Django's dummy backend there), another SECRET_KEY."""
        env = {name: value for name, value in self.env.items() if name != "DATABASE_URL"}
        env.update(PROBE_REGION=region, PROBE_REGION_KEY=key, SECRET_KEY=f"region-{region}-" + "y" * 50)
        command = ["worker", "-Q", f"probes.{region}", "-P", "solo", "-n", f"{region}@%h", "--without-gossip"]
        return self.start(region, [*command, "--without-mingle", "--without-heartbeat"], env=env)

    def start_beat(self) -> subprocess.Popen:
        return self.start("beat", ["beat", "-s", str(self.tmp_path / "beat-schedule")])

    def kill(self, name: str) -> None:
        process = self.processes.pop(name)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)

    def kill_worker_running(self, run) -> str:
        """Kills (SIGKILL, no warning) the worker whose pool process claimed `run`; returns its name."""
        pid = int(run.worker.split(":")[1].split("/")[0])
        parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        name = next(name for name, process in self.processes.items() if process.pid in (pid, parent))
        self.kill(name)
        return name

    def stop_all(self) -> None:
        """Kills what is left once a test is over: a warm shutdown would first drain the runs in
        flight (up to PROBE_MAX_TIMEOUT + 2 s), which no test looks at."""
        for name in list(self.processes):
            if self.processes[name].poll() is None:
                self.kill(name)
        self.processes.clear()

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text(errors='replace')[-3000:]}"
            for path in self.tmp_path.glob("*.log")
        )


@pytest.fixture
def probe_system(transactional_db, tmp_path):
    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    system = ProbeSystem(tmp_path)
    yield system
    system.stop_all()


def wait_for(condition, *, seconds: float, every: float = 0.2, message: str = ""):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"timed out after {seconds} s waiting for {message or condition}")


def cut_where_due(run) -> bool:
    """A timeout cut the run at the probe's `timeout` (up to half a second sooner when it started
    late: it must end before the watchdog's grace runs out), not at its `read_timeout`."""
    took = round((run.finished_at - run.started_at).total_seconds(), 1)
    return run.probe.timeout - 0.5 <= took < run.probe.read_timeout


def ago(seconds: float) -> dt.datetime:
    return timezone.now() - dt.timedelta(seconds=seconds)
