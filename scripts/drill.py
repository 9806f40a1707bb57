#!/usr/bin/env python
"""Fault drills against private PostgreSQL and Redis instances started for the drill.

    make drill                 (or: .venv/bin/python scripts/drill.py)

Starts PostgreSQL (initdb/pg_ctl in a temporary folder, 127.0.0.1:8850), redis-server
(127.0.0.1:8851), and as each drill needs them gunicorn (8852), an SMTP sink (8853), a Celery
worker and beat; stops everything it started. Prints one line per drill and exits non-zero
when a goal is missed:
  1. database-stopped: the database stops under light load; public reads keep answering 200
     (from the snapshot), API writes answer 503, and after the restart pages are live again
     and no update posted before the stop is lost.
  2. redis-stopped: Redis stops while an update is published; the update saves, its emails go
     out once Redis is back; none missing, none duplicated.
Drills 3-5 (worker SIGKILL, refusing SMTP, hanging probe) are not implemented on this branch.
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv/bin/python")
PG_PORT, REDIS_PORT, APP_PORT, SMTP_PORT = 8850, 8851, 8852, 8853
SCRATCH = Path(tempfile.mkdtemp(prefix="drill-"))
os.chmod(SCRATCH, 0o755)
DOMAIN = "drill.example"

os.environ.update(
    {
        "DJANGO_SETTINGS_MODULE": "statuspage.settings",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{PG_PORT}/statuspage_drill",
        "REDIS_URL": f"redis://127.0.0.1:{REDIS_PORT}/0",
        "STATUSPAGE_VAR_DIR": str(SCRATCH / "var"),
        "STATUS_SNAPSHOT_DIR": str(SCRATCH / "snapshot"),
        "DEBUG": "0",
        "SECRET_KEY": "drill-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",
        "EMAIL_BACKEND": "smtp",
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(SMTP_PORT),
        "NOTIFY_SWEEP_SECONDS": "2",
        "NOTIFY_RETRY_BASE_SECONDS": "1",
        "NOTIFY_RETRY_MAX_SECONDS": "5",
        "DEGRADED_RECHECK_SECONDS": "1",
        "LOG_LEVEL": "ERROR",
    }
)
started: list[subprocess.Popen] = []


def say(text: str) -> None:
    print(f"  {text}", file=sys.stderr, flush=True)


def as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def pg_ctl(action: str) -> None:
    options = f"-p {PG_PORT} -h 127.0.0.1 -k {SCRATCH} -c fsync=off"
    subprocess.run(
        as_postgres(
            ["pg_ctl", "-D", str(SCRATCH / "pg"), "-l", str(SCRATCH / "pg.log"), "-w", "-o", options, action]
        ),
        check=True,
        stdout=subprocess.DEVNULL,
    )


def start_postgres() -> None:
    (SCRATCH / "pg").mkdir()
    if os.geteuid() == 0:
        shutil.chown(SCRATCH / "pg", "postgres")
        shutil.chown(SCRATCH, "postgres")
    subprocess.run(
        as_postgres(["initdb", "-D", str(SCRATCH / "pg"), "-U", "postgres", "--auth=trust", "-E", "UTF8"]),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    pg_ctl("start")
    subprocess.run(
        [
            "psql",
            "-h",
            "127.0.0.1",
            "-p",
            str(PG_PORT),
            "-U",
            "postgres",
            "-q",
            "-c",
            "CREATE DATABASE statuspage_drill",
        ],
        check=True,
    )


def start_redis() -> subprocess.Popen:
    process = subprocess.Popen(
        [
            "redis-server",
            "--bind",
            "127.0.0.1",
            "--port",
            str(REDIS_PORT),
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
    )
    started.append(process)
    for _ in range(100):
        if subprocess.run(["redis-cli", "-p", str(REDIS_PORT), "ping"], capture_output=True).returncode == 0:
            return process
        time.sleep(0.05)
    raise SystemExit("redis did not start")


def start(command: list[str], port: int | None = None) -> subprocess.Popen:
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL)
    started.append(process)
    if port:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise SystemExit(f"{command[0]} exited with {process.returncode}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
                return process
            except urllib.error.HTTPError:
                return process
            except OSError:
                time.sleep(0.1)
        raise SystemExit(f"{command[0]} did not answer on port {port}")
    return process


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def request(
    path: str, *, method: str = "GET", body: bytes | None = None, token: str = ""
) -> tuple[int, dict, bytes]:
    headers = {"Content-Type": "application/json"} if body else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    call = urllib.request.Request(
        f"http://127.0.0.1:{APP_PORT}{path}", data=body, method=method, headers=headers
    )
    try:
        with urllib.request.urlopen(call, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()
    except OSError:
        return 0, {}, b""


sys.path.insert(0, str(ROOT))
import django  # noqa: E402

django.setup()  # connects lazily: PostgreSQL and Redis are started in main()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from incidents import snapshot  # noqa: E402
from incidents.models import Component, Delivery, Incident, Subscriber  # noqa: E402
from incidents.roles import Role, assign_role  # noqa: E402
from incidents.services.api_tokens import issue_token  # noqa: E402
from incidents.services.incidents import declare_incident, post_update  # noqa: E402


class Readers(threading.Thread):
    """Light load: a reader fetching public pages and JSON every 50 ms."""

    PATHS = ("/", "/ru/", "/api/v2/summary.json", "/history.atom", "/uptime/", "/nb/maintenance/")

    def __init__(self):
        super().__init__(daemon=True)
        self.statuses: list[int] = []
        self.from_snapshot = 0
        self.running = True

    def run(self):
        turn = 0
        while self.running:
            status, headers, _ = request(self.PATHS[turn % len(self.PATHS)])
            self.statuses.append(status)
            self.from_snapshot += "X-Status-Snapshot" in headers
            turn += 1
            time.sleep(0.05)


def setup_site():
    say("migrating the drill database")
    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.create_user(username="drill", password="drill horse battery")
    assign_role(admin, Role.ADMIN)
    component = Component.objects.create(slug="public-api", name={"en": "Public API"})
    _token, secret = issue_token(admin, name="drill", scope="read_write", actor=None)
    return admin, component, secret


def drill_database(component, secret) -> bool:
    say("exporting the snapshot")
    snapshot.export()
    say("starting gunicorn")
    app = start(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "statuspage.wsgi",
            "-w",
            "2",
            "-b",
            f"127.0.0.1:{APP_PORT}",
            "--log-level",
            "error",
        ],
        APP_PORT,
    )
    readers = Readers()
    readers.start()
    titles = [f"Drill incident {n}" for n in range(5)]
    for title in titles:
        status, _, body = request(
            "/api/v1/incidents/",
            method="POST",
            body=f'{{"title": "{title}", "language": "en", "body": "Posted before the stop."}}'.encode(),
            token=secret,
        )
        assert status == 201, (status, body[:300])
    time.sleep(1)
    say("stopping PostgreSQL")
    connection.close()
    pg_ctl("stop")
    stopped_at = time.monotonic()
    time.sleep(2)
    write_status, _, write_body = request(
        "/api/v1/incidents/",
        method="POST",
        body=b'{"title": "x", "language": "en", "body": "y"}',
        token=secret,
    )
    # A page nobody read before the stop is in no cache: it can only come from the snapshot.
    snapshot_read = request("/es/history/")
    time.sleep(3)
    down_statuses = list(readers.statuses)
    say("starting PostgreSQL again")
    pg_ctl("start")
    restarted_at = time.monotonic()
    live_after = None
    after_status = 0
    deadline = time.monotonic() + 20
    # Live again: a read that needs the database and a write both succeed (each gunicorn worker
    # retries the database at most every DEGRADED_RECHECK_SECONDS, so allow for a second).
    while time.monotonic() < deadline:
        status, headers, _ = request("/api/v1/incidents/", token=secret)
        if status == 200 and "X-Status-Snapshot" not in headers:
            after_status, _, _ = request(
                "/api/v1/incidents/",
                method="POST",
                body=b'{"title": "After", "language": "en", "body": "y"}',
                token=secret,
            )
            if after_status == 201:
                live_after = time.monotonic() - restarted_at
                break
        time.sleep(0.2)
    readers.running = False
    readers.join()
    stop(app)
    kept = Incident.objects.filter(title__en__in=titles).count() if connection.vendor else 0
    non_200 = sum(1 for s in readers.statuses if s != 200)
    ok = (
        non_200 == 0
        and write_status == 503
        and b"database_unavailable" in write_body
        and "X-Status-Snapshot" in snapshot_read[1]
        and live_after is not None
        and after_status == 201
        and kept == len(titles)
    )
    print(
        f"drill=database-stopped reads={len(readers.statuses)} non_200={non_200} "
        f"snapshot_answers={readers.from_snapshot} write_while_down={write_status} "
        f"outage_s={restarted_at - stopped_at:.1f} live_after_restart_s={(live_after or 0):.1f} write_after={after_status} "
        f"lost_updates={len(titles) - kept} reads_during_outage={len(down_statuses)} goal={'met' if ok else 'MISSED'}",
        flush=True,
    )
    return ok


redis: subprocess.Popen | None = None


def drill_redis(component) -> bool:
    global redis
    sink_file = SCRATCH / "received.txt"
    sink_file.touch()
    start([PYTHON, "scripts/smtp_sink.py", "--port", str(SMTP_PORT), "--out", str(sink_file)])
    now = timezone.now()
    subscribers = Subscriber.objects.bulk_create(
        Subscriber(email=f"s{i:03}@{DOMAIN}", language="en", confirmed_at=now, created_at=now)
        for i in range(50)
    )
    incident = declare_incident(
        title="Drill: Redis outage",
        language="en",
        body="Investigating.",
        component_statuses={component: "degraded_performance"},
        actor=None,
    )
    del subscribers
    say("stopping Redis, then publishing")
    redis.terminate()
    redis.wait()
    saved = False
    try:
        update = post_update(
            incident,
            status="identified",
            language="en",
            body={"en": "Published while Redis is down."},
            actor=None,
        )
        saved = Incident.objects.get(pk=incident.pk).updates.filter(pk=update.pk).exists()
    except Exception as error:  # noqa: BLE001 - the drill reports it
        say(f"publishing failed with Redis down: {error!r}")
        return _redis_line(False, 0, 0, 0, 0)
    read_status, _, _ = (0, {}, b"")
    say("Redis is back; starting a worker and beat")
    redis = start_redis()
    worker = start(
        [PYTHON, "-m", "celery", "-A", "statuspage", "worker", "-Q", "default,notify", "-c", "2",
         "-n", f"drill-{os.getpid()}@%h", "-l", "error", "--without-gossip", "--without-mingle"]
    )  # fmt: skip
    beat = start(
        [
            PYTHON,
            "-m",
            "celery",
            "-A",
            "statuspage",
            "beat",
            "-l",
            "error",
            "-s",
            str(SCRATCH / "beat-schedule"),
        ]
    )
    expected = {
        f"<{key}@" for key in Delivery.objects.filter(update=update).values_list("idempotency_key", flat=True)
    }
    returned = time.monotonic()
    deadline = returned + 60
    arrived: list[str] = []
    while time.monotonic() < deadline:
        arrived = [
            line for line in sink_file.read_text().split() if any(line.startswith(e) for e in expected)
        ]
        if len(set(arrived)) >= len(expected):
            break
        time.sleep(0.5)
    elapsed = time.monotonic() - returned
    time.sleep(3)  # late arrivals count as duplicates
    arrived = [line for line in sink_file.read_text().split() if any(line.startswith(e) for e in expected)]
    stop(beat)
    stop(worker)
    missing = len(expected) - len(set(arrived))
    duplicates = len(arrived) - len(set(arrived))
    del read_status
    return _redis_line(saved and len(expected) > 0, len(expected), missing, duplicates, elapsed)


def _redis_line(saved: bool, expected: int, missing: int, duplicates: int, elapsed: float) -> bool:
    ok = saved and missing == 0 and duplicates == 0
    print(
        f"drill=redis-stopped update_saved={'yes' if saved else 'no'} emails={expected} missing={missing} "
        f"duplicates={duplicates} delivered_after_return_s={elapsed:.1f} goal={'met' if ok else 'MISSED'}",
        flush=True,
    )
    return ok


def main() -> int:
    began = time.monotonic()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    results: list[bool] = []
    global redis
    try:
        start_postgres()
        redis = start_redis()
        _admin, component, secret = setup_site()
        results = [drill_database(component, secret), drill_redis(component)]
        for name in ("worker-killed", "smtp-refusing", "probe-hangs"):
            print(f"drill={name} goal=not-implemented", flush=True)
    finally:
        for process in reversed(started):
            stop(process)
        try:
            connection.close()
            pg_ctl("stop")
        except Exception as error:  # noqa: BLE001
            say(f"postgres stop: {error!r}")
        shutil.rmtree(SCRATCH, ignore_errors=True)
    print(
        f"drill: passed={sum(results)} failed={len(results) - sum(results)} seconds={time.monotonic() - began:.0f}"
    )
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
