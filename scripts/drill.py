#!/usr/bin/env python
"""Fault drills against private PostgreSQL and Redis instances started for the drill.

    make drill                 (or: .venv/bin/python scripts/drill.py; DRILLS=3,5 picks some)

Starts PostgreSQL (initdb/pg_ctl in a temporary folder, 127.0.0.1:8850), redis-server
(127.0.0.1:8851), and as each drill needs them gunicorn (8852), SMTP sinks (scripts/smtp_sink.py
on 8853-8855 and 8858), the bench's probe target server (scripts/bench_probes.py, 8856), Celery workers
started as production runs them (notify: `-Q default,notify -c 2`; probes: `-Q probes -P solo`)
and beat; stops everything it started, also when a drill fails. Prints one line per drill and
exits non-zero when a goal is missed:
  1. database-stopped: the database stops under light load; public reads keep answering 200
     (from the snapshot), API writes answer 503, and after the restart pages are live again
     and no update posted before the stop is lost.
  2. redis-stopped: Redis stops while an update is published; the update saves, its emails go
     out once Redis is back; none missing, none duplicated.
  3. worker-killed: 40 probe runs in flight (targets answering after 2 s) and a mail batch half
     sent (the sink takes 50 ms a mail, NOTIFY_LEASE_SECONDS=5) when both workers get SIGKILL
     with their pool children; fresh workers start. Goal: no mail missing, every run of the
     killed round ended by the watchdog (none left pending/running), and a mail sent twice only
     if the sink had it before the kill while its row was still `sending` (accepted, not yet
     marked sent: at most a batch per killed worker process, each with its one Message-ID),
     counted as smtp_window_duplicates=; any other duplicate misses the goal.
  4. smtp-refusing: the sink answers every RCPT with 451 for 30 s of wall time, then accepts
     (NOTIFY_RETRY_BASE_SECONDS=2, NOTIFY_RETRY_MAX_SECONDS=8, sweep every second). Prints the
     refused attempts and the median[min-max] gap after the n-th attempt of a mail. Goal: every
     mail arrives exactly once, none failed, the gaps grow (attempt 3's median above attempt 1's)
     and vary (jitter: a spread of at least 0.5 s at some attempt).
  5. probe-hangs: 200 probes of targets answering at once and one of a target that accepts the
     connection and never answers, every 5 s (2 s timeout) for 15 s. Goal: every run of the 200
     due in the window done, their lateness (start - due) p99 under LATENESS_GOAL_MS, the
     hanging runs ended as timeouts at their 2 s deadline, no run stuck pending/running.
  6. broker-outage-make-run: scripts/run_platform.py (what `make run` starts: runserver, a
     worker and beat, on 8857) serves pages to a reader while its worker gets SIGKILL and Redis
     stops for BROKER_DOWN_S; Redis then comes back. Goal: every page answered 200 throughout,
     a probe run (beat, broker, worker, database: a task round trip) finished within
     WORKER_BACK_GOAL_S of the broker's return, and the development server holding few database
     connections (it closes each after its request).
  7. redis-stopped-logins: gunicorn serves with REDIS_URL set while Redis stops for REDIS_OUTAGE_S;
     meanwhile a person logs in to the editor again and again and readers subscribe through
     /subscribe/api/ (confirmation mails to a sink on 8858). Goal: every login with the right
     password succeeds and opens the editor, five wrong passwords still lock a user name, every
     subscription answers 202 or 503 with Retry-After, nothing answers 500, and nothing is lost:
     every accepted subscription is stored and its confirmation mail arrives.
"""

import contextlib
import datetime as dt
import itertools
import math
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path

import private_services
from drill_logs import show_errors_in_logs

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv/bin/python")
PG_PORT, REDIS_PORT, APP_PORT, SMTP_PORT = 8850, 8851, 8852, 8853
SMTP_KILL_PORT, SMTP_REFUSING_PORT, TARGET_PORT, RUN_PORT = 8854, 8855, 8856, 8857
LOGINS_SMTP_PORT = 8858
# Drill 6: the worker must take tasks again within this long after the broker is back.
WORKER_BACK_GOAL_S = 30
# "On schedule" for drill 5: a run starts within this long after its due time (p99).
LATENESS_GOAL_MS = 500
SCRATCH = Path(tempfile.mkdtemp(prefix="drill-"))
os.chmod(SCRATCH, 0o755)
DOMAIN = "drill.example"
DRILL_PASSWORD = "drill horse battery"  # the drill's editor users'

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
        # Drills 3 and 5: probes of loopback targets, with intervals and timeouts of seconds.
        "OUTBOUND_ALLOW_PRIVATE_TARGETS": "1",
        "PROBE_MIN_INTERVAL": "2",
        "PROBE_MAX_TIMEOUT": "10",
        "LOG_LEVEL": "ERROR",
    }
)
started: list[subprocess.Popen] = []
sessions: set[int] = set()  # processes started as the leader of their own session


def say(text: str) -> None:
    print(f"  {text}", file=sys.stderr, flush=True)


def pg_ctl(action: str) -> None:
    private_services.pg_ctl(SCRATCH, PG_PORT, action)


def start_postgres() -> None:
    private_services.start_postgres(SCRATCH, PG_PORT, "statuspage_drill")


def start_redis() -> subprocess.Popen:
    process = private_services.start_redis(REDIS_PORT)
    started.append(process)
    return process


def start(
    command: list[str],
    port: int | None = None,
    *,
    env: dict[str, str] | None = None,
    log: str = "",
    session: bool = False,
) -> subprocess.Popen:
    """Starts a process (in its own session when it is to be killed with its children)."""
    stderr = open(SCRATCH / f"{log}.log", "ab") if log else None  # the child owns it
    process = subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
        env={**os.environ, **(env or {})},
        start_new_session=session,
    )
    if stderr:
        stderr.close()
    started.append(process)
    if session:
        sessions.add(process.pid)
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
    if process.pid in sessions:
        # A worker's pool children must not outlive it.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


def request(
    path: str, *, method: str = "GET", body: bytes | None = None, token: str = "", port: int = APP_PORT
) -> tuple[int, dict, bytes]:
    headers = {"Content-Type": "application/json"} if body else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    call = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body, method=method, headers=headers)
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

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from incidents.channels.emails import message_domain  # noqa: E402
from incidents.lifecycle.commands import DeclareIncident, PostUpdate  # noqa: E402
from incidents.lifecycle.opening import declare_incident  # noqa: E402
from incidents.lifecycle.updates import post_update  # noqa: E402
from incidents.models import (  # noqa: E402
    ACTIVE_RUN_STATES,
    Component,
    Delivery,
    DeliveryState,
    Incident,
    Metric,
    Probe,
    ProbeKind,
    ProbeRun,
    RunState,
    Subscriber,
)
from incidents.public import snapshot  # noqa: E402
from incidents.roles import Role, assign_role  # noqa: E402
from incidents.services.api_tokens import issue_token  # noqa: E402
from incidents.services.probes import validate_probe  # noqa: E402
from statuspage.celery import app as celery_app  # noqa: E402


class Readers(threading.Thread):
    """Light load: a reader fetching public pages and JSON every 50 ms."""

    PATHS = ("/", "/ru/", "/api/v2/summary.json", "/history.atom", "/uptime/", "/nb/maintenance/")

    def __init__(self, port: int = APP_PORT):
        super().__init__(daemon=True)
        self.port = port
        self.statuses: list[int] = []
        self.from_snapshot = 0
        self.running = True

    def run(self):
        turn = 0
        while self.running:
            status, headers, _ = request(self.PATHS[turn % len(self.PATHS)], port=self.port)
            self.statuses.append(status)
            self.from_snapshot += "X-Status-Snapshot" in headers
            turn += 1
            time.sleep(0.05)


def setup_site():
    say("migrating the drill database")
    call_command("migrate", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    admin = get_user_model().objects.create_user(username="drill", password=DRILL_PASSWORD)
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
        DeclareIncident(
            title="Drill: Redis outage",
            language="en",
            body="Investigating.",
            component_statuses={component: "degraded_performance"},
        ),
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
            PostUpdate(status="identified", language="en", body={"en": "Published while Redis is down."}),
            actor=None,
        )
        saved = Incident.objects.get(pk=incident.pk).updates.filter(pk=update.pk).exists()
    except Exception as error:  # the drill reports it
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


# --- drills 3-5: Celery workers, a refusing mail server, a hanging probe target -------------
CELERY = [PYTHON, "-m", "celery", "-A", "statuspage"]
# Production's two kinds of worker (docs/probes.md, docs/subscriptions.md): notifications and
# the rest in a prefork pool, probes in their own solo process whose event loop is the concurrency.
NOTIFY_WORKER = ["worker", "-Q", "default,notify", "-c", "2", "--without-gossip", "--without-mingle"]
PROBES_WORKER = ["worker", "-Q", "probes", "-P", "solo", "--without-gossip", "--without-mingle"]


def start_worker(kind: list[str], name: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    """A worker in its own session, so a SIGKILL of its group takes its pool children too."""
    node = f"{name}@drill"
    return start([*CELERY, *kind, "-n", node, "-l", "error"], env=env, log=name, session=True)


def start_beat(name: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    return start([*CELERY, "beat", "-l", "error", "-s", str(SCRATCH / f"{name}-schedule")], env=env, log=name)


def wait_for_workers(*names: str, seconds: float = 40) -> bool:
    deadline = time.monotonic() + seconds
    waiting = {f"{name}@drill" for name in names}
    while waiting and time.monotonic() < deadline:
        for answer in celery_app.control.ping(destination=sorted(waiting), timeout=0.5):
            waiting -= set(answer)
    return not waiting


def kill_hard(process: subprocess.Popen) -> None:
    """SIGKILL to the worker and its pool children: no warm shutdown, no acknowledgement."""
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def start_sink(name: str, port: int, *extra: str) -> Path:
    received = SCRATCH / f"{name}.txt"
    received.touch()
    start([PYTHON, "scripts/smtp_sink.py", "--port", str(port), "--out", str(received), *extra], log=name)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return received
        time.sleep(0.05)
    raise SystemExit(f"the SMTP sink on {port} did not start")


def received_ids(sink_file: Path, expected: set[str]) -> list[str]:
    return [line for line in sink_file.read_text().split() if line in expected]


def expected_message_ids(update) -> set[str]:
    return {
        f"<{key}@{message_domain()}>"
        for key in Delivery.objects.filter(update=update).values_list("idempotency_key", flat=True)
    }


def new_subscribers(prefix: str, count: int) -> None:
    now = timezone.now()
    Subscriber.objects.bulk_create(
        Subscriber(email=f"{prefix}{i:03}@{DOMAIN}", language="en", confirmed_at=now, created_at=now)
        for i in range(count)
    )


def wait_until(condition, seconds: float, every: float = 0.2) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return condition()


def target_url(behaviour: str, n: int) -> str:
    """A path of the bench's target server (scripts/bench_probes.py): the index's last digit
    says how it answers: 8 after 2 s, 9 never (the connection stays open), others at once."""
    last_digit = {"fast": 0, "slow": 8, "hang": 9}[behaviour]
    return f"http://127.0.0.1:{TARGET_PORT}/t/{n * 10 + last_digit}"


def make_probes(slug: str, urls: list[str], *, interval: int, timeout: float) -> list[Probe]:
    """One probe (and its metric) per URL, on a component in manual mode, not yet scheduled."""
    component = Component.objects.create(slug=slug, name={"en": slug})
    metrics = Metric.objects.bulk_create(
        Metric(component=component, slug=f"m{i}", name={"en": f"m{i}"}, unit="ms", window=3)
        for i in range(len(urls))
    )
    probes = [
        Probe(
            name=f"{slug} {i}",
            kind=ProbeKind.HTTP,
            metric=metric,
            url=url,
            interval=interval,
            timeout=timeout,
            connect_timeout=timeout,
            read_timeout=timeout,
            next_run_at=None,
        )
        for i, (url, metric) in enumerate(zip(urls, metrics, strict=True))
    ]
    for probe in probes:
        validate_probe(probe)
    return Probe.objects.bulk_create(probes)


def schedule(probes: list[Probe], *, first_at: dt.datetime, spread: float) -> None:
    rng = random.Random(8)
    for probe in probes:
        probe.next_run_at = first_at + dt.timedelta(seconds=rng.uniform(0, spread))
    Probe.objects.bulk_update(probes, ["next_run_at"])


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def drill_worker_killed(component) -> bool:
    """A notification batch and a probe round in flight when both workers get SIGKILL."""
    lease = 5
    env = {"EMAIL_PORT": str(SMTP_KILL_PORT), "NOTIFY_LEASE_SECONDS": str(lease)}
    # The sink takes 50 ms per mail, as a mail server some network away does (it answers the
    # final "." at once, RFC 1047): the batch is in flight for seconds.
    sink_file = start_sink("sink-killed", SMTP_KILL_PORT, "--rcpt-delay", "0.05")
    new_subscribers("k", 100)
    # Targets answering after 2 s, so the round is in flight for a while.
    probes = make_probes("drill-killed", [target_url("slow", n) for n in range(40)], interval=10, timeout=4)
    say("starting a notify worker, a probes worker and beat")
    workers = [start_worker(NOTIFY_WORKER, "notify-1", env), start_worker(PROBES_WORKER, "probes-1", env)]
    beat = start_beat("beat-killed", env)
    if not wait_for_workers("notify-1", "probes-1"):
        return _killed_line(ok=False, note="workers_did_not_start")
    schedule(probes, first_at=timezone.now() + dt.timedelta(seconds=1), spread=2)
    drill_runs = ProbeRun.objects.filter(probe__in=probes)
    in_flight = drill_runs.filter(state=RunState.RUNNING)
    # Publish once the round's requests are under way, then kill when part of the mail is out.
    wait_until(lambda: in_flight.filter(scheduled_at__lte=timezone.now()).exists(), 15)
    incident = declare_incident(
        DeclareIncident(
            title="Drill: worker killed",
            language="en",
            body="Investigating.",
            component_statuses={component: "degraded_performance"},
        ),
        actor=None,
    )
    update = incident.updates.get()
    expected = expected_message_ids(update)
    wait_until(lambda: len(received_ids(sink_file, expected)) >= len(expected) // 4, 20, every=0.02)
    time.sleep(random.uniform(0, 0.05))  # any moment of a mail's exchange, not just after a "250"
    runs_in_flight = list(in_flight.values_list("pk", flat=True))
    requesting = in_flight.filter(scheduled_at__lte=timezone.now()).count()
    say(f"SIGKILL to both workers ({len(runs_in_flight)} probe runs in flight)")
    for worker in workers:
        kill_hard(worker)
    killed_at = time.monotonic()
    accepted_before = set(received_ids(sink_file, expected))
    sent_before = len(accepted_before)
    unmarked = Delivery.objects.filter(update=update, state=DeliveryState.SENDING)
    sending = unmarked.count()
    # The only mails that may go out twice: the sink has them, their worker died before marking them.
    window = accepted_before & {
        f"<{key}@{message_domain()}>" for key in unmarked.values_list("idempotency_key", flat=True)
    }
    say("starting fresh workers; the dead ones' leases and runs expire")
    fresh = [start_worker(NOTIFY_WORKER, "notify-2", env), start_worker(PROBES_WORKER, "probes-2", env)]
    abandoned_runs = ProbeRun.objects.filter(pk__in=runs_in_flight)

    def recovered() -> bool:
        return (
            len(set(received_ids(sink_file, expected))) == len(expected)
            and not abandoned_runs.filter(state__in=ACTIVE_RUN_STATES).exists()
        )

    wait_until(recovered, 40, every=0.2)
    recovery_s = time.monotonic() - killed_at
    Probe.objects.filter(pk__in=[p.pk for p in probes]).update(enabled=False)
    time.sleep(2)  # late arrivals count as duplicates
    arrived = received_ids(sink_file, expected)
    wait_until(lambda: not drill_runs.filter(state__in=ACTIVE_RUN_STATES).exists(), 15)
    for process in (beat, *fresh):
        stop(process)
    left_active = drill_runs.filter(state__in=ACTIVE_RUN_STATES).count()
    ends = dict(Counter(abandoned_runs.values_list("state", flat=True)))
    missing = len(expected) - len(set(arrived))
    duplicates = len(arrived) - len(set(arrived))
    window_duplicates = sum(
        1 for message_id, n in Counter(arrived).items() if n == 2 and message_id in window
    )
    killed_senders = 2  # the notify worker's pool processes (`-c 2`)
    ok = bool(runs_in_flight) and 0 < sent_before < len(expected) and missing == 0
    ok = ok and duplicates == window_duplicates <= killed_senders * settings.NOTIFY_BATCH_SIZE
    ok = ok and left_active == 0
    return _killed_line(
        ok=ok,
        note=(
            f"emails={len(expected)} sent_before_kill={sent_before} sending_at_kill={sending} "
            f"missing={missing} duplicates={duplicates} smtp_window_duplicates={window_duplicates} "
            f"other_duplicates={duplicates - window_duplicates} runs_in_flight_at_kill={len(runs_in_flight)} runs_due_at_kill={requesting} "
            f"their_end={','.join(f'{k}:{v}' for k, v in sorted(ends.items()))} "
            f"runs_left_active={left_active} lease_s={lease} recovered_after_s={recovery_s:.1f}"
        ),
    )


def _killed_line(*, ok: bool, note: str) -> bool:
    print(f"drill=worker-killed {note} goal={'met' if ok else 'MISSED'}", flush=True)
    return ok


def drill_smtp_refusing(component) -> bool:
    """The mail server answers 451 for 30 s, then accepts: backoff with jitter, each mail once."""
    refuse_seconds = 30
    env = {
        "EMAIL_PORT": str(SMTP_REFUSING_PORT),
        "NOTIFY_SWEEP_SECONDS": "1",
        "NOTIFY_RETRY_BASE_SECONDS": "2",
        "NOTIFY_RETRY_MAX_SECONDS": "8",
        "NOTIFY_MAX_ATTEMPTS": "12",
    }
    Subscriber.objects.update(unsubscribed_at=timezone.now())
    new_subscribers("r", 40)
    attempts_file = SCRATCH / "attempts.txt"
    refuse_until = time.time() + refuse_seconds
    sink_file = start_sink(
        "sink-refusing",
        SMTP_REFUSING_PORT,
        "--refuse-until",
        f"{refuse_until:.3f}",
        "--attempts",
        str(attempts_file),
    )
    worker = start_worker(NOTIFY_WORKER, "notify-3", env)
    beat = start_beat("beat-refusing", env)
    incident = declare_incident(
        DeclareIncident(
            title="Drill: mail server refusing",
            language="en",
            body="Investigating.",
            component_statuses={component: "partial_outage"},
        ),
        actor=None,
    )
    update = incident.updates.get()
    expected = expected_message_ids(update)
    wait_until(lambda: len(set(received_ids(sink_file, expected))) == len(expected), refuse_seconds + 30)
    time.sleep(2)  # late arrivals count as duplicates
    stop(beat)
    stop(worker)
    arrived = received_ids(sink_file, expected)
    states = Counter(Delivery.objects.filter(update=update).values_list("state", flat=True))
    addresses = set(Delivery.objects.filter(update=update).values_list("subscriber__email", flat=True))
    tries: dict[str, list[tuple[float, str]]] = {}
    for line in attempts_file.read_text().splitlines():
        at, code, address = line.split()
        if address in addresses:
            tries.setdefault(address, []).append((float(at), code))
    refused = sum(code == "451" for each in tries.values() for _, code in each)
    gaps_after: dict[int, list[float]] = {}
    for each in tries.values():
        for n, ((before, _), (after, _)) in enumerate(itertools.pairwise(sorted(each)), start=1):
            gaps_after.setdefault(n, []).append(after - before)
    accepted_at = [at for each in tries.values() for at, code in each if code == "250"]
    last_accept_s = max(accepted_at, default=refuse_until) - refuse_until
    gaps = ",".join(
        f"{n}:{statistics.median(g):.1f}[{min(g):.1f}-{max(g):.1f}]"
        for n, g in sorted(gaps_after.items())
        if len(g) >= 3
    )
    medians = [statistics.median(g) for n, g in sorted(gaps_after.items()) if len(g) >= 3]
    backs_off = len(medians) >= 3 and medians[2] > medians[0]
    jittered = any(max(g) - min(g) >= 0.5 for g in gaps_after.values() if len(g) >= 3)
    missing = len(expected) - len(set(arrived))
    duplicates = len(arrived) - len(set(arrived))
    attempts = [len(each) for each in tries.values()]
    ok = missing == 0 and duplicates == 0 and states.get(DeliveryState.SENT, 0) == len(expected)
    ok = ok and refused > 0 and backs_off and jittered
    print(
        f"drill=smtp-refusing emails={len(expected)} refused_s={refuse_seconds} retries={refused} "
        f"attempts_per_mail={min(attempts, default=0)}-{max(attempts, default=0)} "
        f"gaps_s={gaps} backoff={'yes' if backs_off else 'no'} "
        f"jitter={'yes' if jittered else 'no'} missing={missing} duplicates={duplicates} "
        f"failed={states.get(DeliveryState.FAILED, 0)} last_accepted_after_s={last_accept_s:.1f} "
        f"goal={'met' if ok else 'MISSED'}",
        flush=True,
    )
    return ok


def drill_probe_hangs() -> bool:
    """One target accepts and never answers while 200 probes of fast targets run."""
    interval, timeout, window = 5, 2.0, 15
    fast = make_probes(
        "drill-fleet", [target_url("fast", n) for n in range(200)], interval=interval, timeout=timeout
    )
    hanging = make_probes("drill-hanging", [target_url("hang", 0)], interval=interval, timeout=timeout)
    worker = start_worker(PROBES_WORKER, "probes-3")
    beat = start_beat("beat-hangs")
    if not wait_for_workers("probes-3"):
        print("drill=probe-hangs note=worker_did_not_start goal=MISSED", flush=True)
        return False
    # First runs after the scheduler's first dispatch (beat runs it PROBE_DISPATCH_EVERY after start).
    t0 = timezone.now() + dt.timedelta(seconds=3)
    end = t0 + dt.timedelta(seconds=window)
    schedule(fast, first_at=t0, spread=interval)
    schedule(hanging, first_at=t0, spread=0)
    # Expected runs: every due time of each fast probe inside the window.
    expected = 0
    for probe in fast:
        due = probe.next_run_at
        while due < end:
            expected += 1
            due += dt.timedelta(seconds=interval)
    time.sleep(max(0.0, (end - timezone.now()).total_seconds()))
    stop(beat)
    in_window = ProbeRun.objects.filter(scheduled_at__gte=t0, scheduled_at__lt=end)
    wait_until(lambda: not in_window.filter(state__in=ACTIVE_RUN_STATES).exists(), timeout + 10)
    stop(worker)
    fast_runs = list(in_window.filter(probe__in=fast))
    hang_runs = list(in_window.filter(probe__in=hanging))
    done = sum(r.state == RunState.OK for r in fast_runs)
    lateness = [(r.started_at - r.scheduled_at).total_seconds() * 1000 for r in fast_runs if r.started_at]
    cuts = [(r.finished_at - r.started_at).total_seconds() for r in hang_runs if r.state == RunState.TIMEOUT]
    hang_states = Counter(r.state for r in hang_runs)
    stuck = in_window.filter(state__in=ACTIVE_RUN_STATES).count()
    p99 = percentile(lateness, 0.99)
    ok = done == expected and p99 < LATENESS_GOAL_MS and stuck == 0 and bool(cuts)
    # The hanging probe's runs end at their deadline; once its breaker opens, later ones are skipped.
    hang_ended_right = set(hang_states) <= {RunState.TIMEOUT, RunState.SKIPPED}
    ok = ok and hang_ended_right and max(cuts, default=99) <= timeout + 0.5
    print(
        f"drill=probe-hangs probes={len(fast)}+1 interval_s={interval} window_s={window} "
        f"expected_runs={expected} done_runs={done} lateness_p50_ms={percentile(lateness, 0.5):.0f} "
        f"lateness_p99_ms={p99:.0f} hanging_runs={','.join(f'{k}:{v}' for k, v in sorted(hang_states.items()))} "
        f"hanging_cut_max_s={max(cuts, default=float('nan')):.2f} stuck={stuck} "
        f"goal={'met' if ok else 'MISSED'}",
        flush=True,
    )
    return ok


# --- drill 6: `make run` through a worker kill and a broker outage --------------------------
BROKER_DOWN_S = 10


def children_of(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of the direct children of `pid`, read from /proc."""
    found = []
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
            if int(fields[1]) == pid:
                command = (status.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                found.append((int(status.parent.name), command))
        except (OSError, IndexError, ValueError):
            continue
    return found


def database_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return cursor.fetchone()[0]


def drill_broker_outage_under_make_run() -> bool:
    global redis
    platform = start(
        [PYTHON, "scripts/run_platform.py", "--port", str(RUN_PORT)],
        env={"DEMO_FEED": "0"},
        log="run-platform",
        session=True,
    )
    [probe] = make_probes("drill-make-run", [f"http://127.0.0.1:{RUN_PORT}/"], interval=2, timeout=1)
    schedule([probe], first_at=timezone.now(), spread=0)
    finished = ProbeRun.objects.filter(probe=probe, finished_at__isnull=False)

    def round_trip_since(moment: dt.datetime) -> bool:
        return finished.filter(finished_at__gte=moment).exists()

    say("waiting for make run's web server and a first probe run through its worker")
    if not wait_until(lambda: round_trip_since(timezone.now() - dt.timedelta(seconds=60)), 90, every=0.5):
        stop(platform)
        return _make_run_line(ok=False, note="worker_never_ran_a_task")
    readers = Readers(port=RUN_PORT)
    readers.start()
    time.sleep(2)
    workers = [pid for pid, command in children_of(platform.pid) if " worker " in command]
    say(
        f"SIGKILL to make run's worker ({len(workers)} process group) and stopping Redis for {BROKER_DOWN_S} s"
    )
    for pid in workers:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)
    redis.terminate()
    redis.wait()
    down_from = len(readers.statuses)
    time.sleep(BROKER_DOWN_S)
    redis = start_redis()
    returned, returned_at = time.monotonic(), timezone.now()
    say("Redis is back; waiting for a probe run through the restarted worker")
    back = wait_until(lambda: round_trip_since(returned_at), 60, every=0.2)
    back_after = time.monotonic() - returned
    time.sleep(2)
    readers.running = False
    readers.join()
    statuses = readers.statuses[down_from:]
    not_200 = len([status for status in statuses if status != 200])
    connections = database_connections()
    restarted = [pid for pid, command in children_of(platform.pid) if " worker " in command]
    platform_alive = platform.poll() is None
    stop(platform)
    Probe.objects.filter(pk=probe.pk).update(enabled=False)
    ok = (
        back
        and back_after <= WORKER_BACK_GOAL_S
        and not_200 == 0
        and len(statuses) > 0
        and platform_alive
        and bool(restarted)
        and set(restarted).isdisjoint(workers)
        and connections <= 20
    )
    return _make_run_line(
        ok=ok,
        note=(
            f"reads_while_down_and_after={len(statuses)} not_200={not_200} broker_down_s={BROKER_DOWN_S} "
            f"worker_restarted={'yes' if restarted and set(restarted).isdisjoint(workers) else 'no'} "
            f"worker_back_after_s={back_after:.1f} web_alive={'yes' if platform_alive else 'no'} "
            f"db_connections={connections}"
        ),
    )


def _make_run_line(*, ok: bool, note: str) -> bool:
    print(f"drill=broker-outage-make-run {note} goal={'met' if ok else 'MISSED'}", flush=True)
    return ok


# --- drill 7: logins and subscribing through a Redis outage ---------------------------------
REDIS_OUTAGE_S = 20


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the redirect itself is the answer


NO_REDIRECTS = urllib.request.build_opener(_NoRedirects)


class Browser:
    """A person at a browser: keeps its cookies (the Secure ones too, over the drill's plain
    http) and reads a redirect as the answer instead of following it."""

    def __init__(self):
        self.cookies: dict[str, str] = {}

    def send(self, path: str, *, fields: dict[str, str] | None = None) -> tuple[int, bytes]:
        data = urllib.parse.urlencode(fields).encode() if fields is not None else None
        call = urllib.request.Request(f"http://127.0.0.1:{APP_PORT}{path}", data=data)
        if self.cookies:
            call.add_header("Cookie", "; ".join(f"{name}={value}" for name, value in self.cookies.items()))
        try:
            response = NO_REDIRECTS.open(call, timeout=10)
        except urllib.error.HTTPError as error:
            response = error
        except OSError:
            return 0, b""
        with response:
            for cookie in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = cookie.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return response.status, response.read()


def editor_login(username: str, password: str) -> tuple[int, int]:
    """The login's answer, and the editor overview's answer after it (0 when not logged in)."""
    browser = Browser()
    status, page = browser.send("/editor/login/")
    found = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if status != 200 or found is None:
        return status, 0
    fields = {"csrfmiddlewaretoken": found.group(1).decode(), "username": username, "password": password}
    status, _ = browser.send("/editor/login/", fields=fields)
    if status != 302:
        return status, 0
    return status, browser.send("/editor/")[0]


class OutageLoad(threading.Thread):
    """Calls `attempt` every `pause` seconds; keeps (Redis down?, answer) for each call, and
    how long the calls made while Redis was down took."""

    def __init__(self, attempt, pause: float):
        super().__init__(daemon=True)
        self.attempt, self.pause = attempt, pause
        self.redis_down = False
        self.running = True
        self.answers: list[tuple[bool, object]] = []
        self.seconds_down: list[float] = []

    def run(self):
        while self.running:
            down, began = self.redis_down, time.monotonic()
            self.answers.append((down, self.attempt()))
            if down:
                self.seconds_down.append(time.monotonic() - began)
            time.sleep(self.pause)


def drill_redis_logins() -> bool:
    global redis
    attempts_file = SCRATCH / "logins-rcpt.txt"
    start_sink("logins-sink", LOGINS_SMTP_PORT, "--attempts", str(attempts_file))
    get_user_model().objects.create_user(username="drill-locked", password=DRILL_PASSWORD)
    say("starting gunicorn")
    app = start(
        [str(ROOT / ".venv/bin/gunicorn"), "statuspage.wsgi", "-w", "2", "-b", f"127.0.0.1:{APP_PORT}",
         "--log-level", "error"],
        APP_PORT,
        # One client address subscribes many times here: the per-client limit is not under test.
        env={"EMAIL_PORT": str(LOGINS_SMTP_PORT), "SUBSCRIBE_RATE_PER_CLIENT": "100000"},
        log="gunicorn-logins",
    )  # fmt: skip
    began = time.monotonic()
    before = editor_login("drill", DRILL_PASSWORD)
    login_s_before = time.monotonic() - began
    numbers = itertools.count()

    def address(n: int) -> str:
        return f"reader{n}@outage{n}.{DOMAIN}"  # a domain each: per-domain limits are not under test

    def subscribe() -> tuple[int, bool]:
        body = f'{{"email": "{address(next(numbers))}", "language": "en"}}'.encode()
        status, headers, _ = request("/subscribe/api/", method="POST", body=body)
        return status, "Retry-After" in headers

    logins = OutageLoad(lambda: editor_login("drill", DRILL_PASSWORD), pause=0.2)
    subscriptions = OutageLoad(subscribe, pause=0.1)
    loads = (logins, subscriptions)
    for load in loads:
        load.start()
    time.sleep(1)
    say(f"stopping Redis for {REDIS_OUTAGE_S} s under logins and subscriptions")
    redis.terminate()
    redis.wait()
    stopped = time.monotonic()
    for load in loads:
        load.redis_down = True
    time.sleep(2)
    wrong = [editor_login("drill-locked", f"guess{n}")[0] for n in range(5)]
    locked = editor_login("drill-locked", DRILL_PASSWORD)[0]
    time.sleep(max(0.0, REDIS_OUTAGE_S - (time.monotonic() - stopped)))
    for load in loads:
        load.redis_down = False
    redis = start_redis()
    outage = time.monotonic() - stopped
    say("Redis is back")
    time.sleep(3)
    for load in loads:
        load.running = False
        load.join()
    stop(app)

    logins_down = [answer for down, answer in logins.answers if down]
    subscribes_down = [answer for down, answer in subscriptions.answers if down]
    # The n-th subscription was for address(n): one thread sent them in order.
    accepted = {address(n) for n, (_down, (status, _)) in enumerate(subscriptions.answers) if status == 202}
    unavailable = [retry for status, retry in subscribes_down if status == 503]
    statuses = [status for _down, (status, _) in subscriptions.answers]
    for _down, (login, overview) in logins.answers:
        statuses += [login, overview] if login == 302 else [login]
    broken = [status for status in statuses if status == 0 or (status >= 500 and status != 503)]
    unexplained = [status for _down, (status, _) in subscriptions.answers if status not in (202, 503)]

    def delivered() -> set[str]:
        lines = (line.split() for line in attempts_file.read_text().splitlines())
        return {fields[2].strip("<>") for fields in lines if len(fields) == 3 and fields[1] == "250"}

    wait_until(lambda: accepted <= delivered(), 30)
    stored = Subscriber.objects.filter(email__in=accepted).count()
    confirmed = len(accepted & delivered())
    ok = (
        before == (302, 200)
        and len(logins_down) > 0
        and all(answer == (302, 200) for answer in logins_down)
        and wrong == [200] * 5
        and locked == 429
        and len(subscribes_down) > 0
        and all(unavailable)
        and not broken
        and not unexplained
        and stored == len(accepted)
        and confirmed == len(accepted)
    )
    print(
        f"drill=redis-stopped-logins redis_down_s={outage:.1f} logins_while_down={len(logins_down)} "
        f"logins_ok={sum(answer == (302, 200) for answer in logins_down)} "
        f"lockout_held={'yes' if wrong == [200] * 5 and locked == 429 else 'no'} "
        f"login_s_before={login_s_before:.2f} login_s_median={statistics.median(logins.seconds_down or [0]):.2f} "
        f"subscribes_while_down={len(subscribes_down)} "
        f"subscribe_s_median={statistics.median(subscriptions.seconds_down or [0]):.2f} "
        f"accepted_while_down={sum(status == 202 for status, _ in subscribes_down)} "
        f"answered_503={len(unavailable)} without_retry_after={unavailable.count(False)} "
        f"answers_5xx_or_none={len(broken)} other={len(unexplained)} "
        f"stored={stored}/{len(accepted)} confirmations={confirmed}/{len(accepted)} "
        f"goal={'met' if ok else 'MISSED'}",
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
        chosen = os.environ.get("DRILLS", "1,2,3,4,5,6,7").split(",")
        drills = {
            "1": lambda: drill_database(component, secret),
            "2": lambda: drill_redis(component),
            "3": lambda: drill_worker_killed(component),
            "4": lambda: drill_smtp_refusing(component),
            "5": drill_probe_hangs,
            "6": drill_broker_outage_under_make_run,
            "7": drill_redis_logins,
        }
        if {"3", "5"} & set(chosen):
            start([PYTHON, "scripts/bench_probes.py", "--serve-targets", str(TARGET_PORT)], log="targets")
        for number, drill in drills.items():
            if number in chosen:
                drill_began = time.monotonic()
                results.append(drill())
                say(f"drill {number} took {time.monotonic() - drill_began:.0f} s")
    finally:
        for process in reversed(started):
            stop(process)
        try:
            connection.close()
            pg_ctl("stop")
        except Exception as error:
            say(f"postgres stop: {error!r}")
        if not (results and all(results)):
            show_errors_in_logs(SCRATCH, say)
        shutil.rmtree(SCRATCH, ignore_errors=True)
    print(
        f"drill: passed={sum(results)} failed={len(results) - sum(results)} seconds={time.monotonic() - began:.0f}"
    )
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
