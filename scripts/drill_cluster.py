#!/usr/bin/env python
"""Cluster drill: two nodes as docs/deploy.md runs them, one killed, then one cut off.

    make drill-cluster         (or: .venv/bin/python scripts/drill_cluster.py; needs root)

Starts PostgreSQL (8880) and redis-server (8881) of its own on loopback and on 10.251.0.1, the
address the nodes reach them at, and an SMTP sink (scripts/smtp_sink.py, 8884) and HTTP probe
targets (8885 and the ports after it, 100 targets a port) on 10.251.0.2, so a node can lose the
database and the broker and keep the mail server and the targets. Nodes A and B are network
namespaces (scripts/namespaces.py, 10.251.1.2 and 10.251.2.2); each runs the commands
docs/deploy.md gives a node (`node_commands`): gunicorn on 8882, a notify worker, a worker for
probes, default and the node's own queue, and a scheduler candidate (`celery -A statuspage
beat`). nginx with the shipped deploy/nginx/statuspage.conf listens on 127.0.0.1:8883 with both
nodes in its upstream block; its snapshot is B's (the fallback of the machine nginx runs on).
Migrations run once, from here; each node collects its static files and exports its snapshot
before it starts, as a node joining does.

The site: DRILL_CLUSTER_SUBSCRIBERS (20,000) confirmed e-mail subscribers and
DRILL_CLUSTER_TARGETS (1,000) HTTP probes every DRILL_CLUSTER_INTERVAL (20) seconds. A reader
fetches the overview and the drill incident's page through nginx all the time. Both nodes
start once, B's scheduler once A's holds the lease. Each run (DRILL_CLUSTER_RUNS, default
"kill,partition") hits the node that holds the lease (the victim; the other is the survivor):
it lets one probe interval pass, posts an update (one delivery per subscriber through the
outbox) and, once the sink has half of the mails:
  kill:      SIGKILL to every process of the victim (each process in its namespace); the
             survivor carries on. Once the run is counted, the victim starts again as a node
             rejoining does, a standby now: the next run hits the other node.
  partition: blackhole routes in the victim's namespace to 10.251.0.1 (PostgreSQL and Redis,
             not the SMTP sink or the targets) for DRILL_CLUSTER_CUT_SECONDS (30), then removed.
It waits until every mail arrived (or DRILL_CLUSTER_TIMEOUT, 300 s, passed) and the probes'
timeout. Both nodes are discarded (SIGKILL) at the end. One line per run:
  drill=cluster kill|partition lost= duplicates= smtp_window_duplicates= ticks_twice=
  ticks_missed= scheduler_failover_s= page_errors= goal=met|missed
where
  lost: the update's deliveries whose Message-ID never reached the sink;
  smtp_window_duplicates: extra copies of a Message-ID whose first copy the sink accepted from
    the victim no later than MARK_WITHIN_SECONDS (the longest a sender goes without storing its
    sent marks, incidents/channels/outbox.py) and one answer after the event (the moment its
    processes are dead, or its routes to the data gone), and whose delivery was `sending`
    (claimed, not marked sent) when read at the event. SMTP cannot close that window
    (RFC 1047); the outbox bounds it;
  duplicates: every other extra copy of a Message-ID;
  ticks_twice: probe runs of a probe less than half an interval after its previous run, plus
    cluster-wide job runs sent under an older term of the lease than an earlier run of that job
    (two schedulers sending at once);
  ticks_missed: per probe, the most intervals in a row without a successful run (from the
    update to the end of the run, less the probes' timeout for runs still in flight), the
    worst probe;
  scheduler_failover_s: from the kill or the cut to the first cluster job sent by the
    survivor's scheduler under a new term of the lease that a worker ran (ScheduledRun); n/a
    when none;
  page_errors: answers through nginx other than 200 (or none) while the run lasted.
Goal: lost 0, duplicates 0, ticks_twice 0, ticks_missed <= 2, failover <= 2 lease periods
(SCHEDULER_LEASE_SECONDS, DRILL_CLUSTER_LEASE_SECONDS here, 15), page_errors 0.
Time is compressed through the settings: DRILL_CLUSTER_RENEW_SECONDS (5) for
SCHEDULER_RENEW_SECONDS, DRILL_CLUSTER_NOTIFY_LEASE_SECONDS (10) for NOTIFY_LEASE_SECONDS, the
notify sweep every second; DRILL_CLUSTER_WEB_WORKERS (2) gunicorn workers a node, as two nodes
share the machine; DRILL_CLUSTER_KEEP=1 keeps the scratch folder (logs, the sink's file).
Where network namespaces cannot be made (not root, no `ip`) or nginx, gunicorn, PostgreSQL or
Redis are missing, it prints `drill=cluster skipped: <why>` and exits 0, or 2 under
REQUIRE_SERVICES=1. Namespaces, routes and addresses are removed at the end, also on failure.
"""

import asyncio
import contextlib
import datetime as dt
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import bench_stack
import namespaces
import private_services
from drill_logs import show_errors_in_logs
from drill_processes import Scratch, wait_until

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv/bin/python")
GUNICORN = str(ROOT / ".venv/bin/gunicorn")
PG_PORT, REDIS_PORT, APP_PORT, NGINX_PORT, SMTP_PORT, TARGET_PORT = 8880, 8881, 8882, 8883, 8884, 8885
TARGETS_PER_PORT = 100
# On the root namespace's `lo`: the database and the broker, which a partition cuts, and the
# world outside (mail server, probe targets), which it does not.
DATA, OUTSIDE = "10.251.0.1", "10.251.0.2"
SUBSCRIBERS = int(os.environ.get("DRILL_CLUSTER_SUBSCRIBERS", "20000"))
TARGETS = int(os.environ.get("DRILL_CLUSTER_TARGETS", "1000"))
INTERVAL = int(os.environ.get("DRILL_CLUSTER_INTERVAL", "20"))
CUT_SECONDS = float(os.environ.get("DRILL_CLUSTER_CUT_SECONDS", "30"))
LEASE_SECONDS = float(os.environ.get("DRILL_CLUSTER_LEASE_SECONDS", "15"))
RENEW_SECONDS = float(os.environ.get("DRILL_CLUSTER_RENEW_SECONDS", "5"))
TIMEOUT = float(os.environ.get("DRILL_CLUSTER_TIMEOUT", "300"))
RUNS = os.environ.get("DRILL_CLUSTER_RUNS", "kill,partition").split(",")
# Gunicorn workers per node: two nodes share this machine's cores.
WEB_WORKERS = int(os.environ.get("DRILL_CLUSTER_WEB_WORKERS", "2"))
PROBE_TIMEOUT = min(3, INTERVAL - 1)
REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
RUN = Scratch("drill-cluster-", cwd=ROOT)
SCRATCH = RUN.folder
DATABASE = "statuspage_cluster"
SECRET_KEY = secrets.token_urlsafe(50)
DOMAIN = "cluster.example"

# What this process (the operator in the root namespace) and every node share.
SHARED = {
    "DJANGO_SETTINGS_MODULE": "statuspage.settings",
    "DEBUG": "0",
    "SECRET_KEY": SECRET_KEY,
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "SITE_URL": f"http://127.0.0.1:{NGINX_PORT}",
    "SECURE_SSL_REDIRECT": "0",
    "EMAIL_BACKEND": "smtp",
    "EMAIL_HOST": OUTSIDE,
    "EMAIL_PORT": str(SMTP_PORT),
    # One dispatch message per notify slot of the whole cluster: two nodes, `-c 2` each.
    "NOTIFY_DISPATCH_PARALLEL": "4",
    "SCHEDULER_LEASE_SECONDS": str(LEASE_SECONDS),
    "SCHEDULER_RENEW_SECONDS": str(RENEW_SECONDS),
    # Time compressed for the drill: a dead sender's rows come back within seconds.
    "NOTIFY_LEASE_SECONDS": os.environ.get("DRILL_CLUSTER_NOTIFY_LEASE_SECONDS", "10"),
    "NOTIFY_SWEEP_SECONDS": "1",
    "OUTBOUND_ALLOW_PRIVATE_TARGETS": "1",
    "PROBE_MIN_INTERVAL": str(min(INTERVAL, 10)),
    # Breakers are not under test: an open one would skip runs of a node's abandoned targets.
    "PROBE_BREAKER_FAILURES": "100000",
    "LOG_LEVEL": "WARNING",
}
os.environ.update(
    {
        **SHARED,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{PG_PORT}/{DATABASE}",
        "REDIS_URL": f"redis://127.0.0.1:{REDIS_PORT}/0",
        "STATUSPAGE_VAR_DIR": str(SCRATCH / "operator"),
    }
)
started, say, start = RUN.started, RUN.say, RUN.start


@dataclass
class Node:
    name: str
    place: namespaces.Place
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)

    @property
    def folder(self) -> Path:
        return SCRATCH / self.name

    @property
    def snapshot(self) -> Path:
        return self.folder / "snapshot"


A = Node("a", namespaces.Place("cluster-a", "clusterv1", "10.251", 1))
B = Node("b", namespaces.Place("cluster-b", "clusterv2", "10.251", 2))
NODES = [A, B]


def node_environment(node: Node) -> dict[str, str]:
    """A node's environment as docs/deploy.md sets it: the shared settings, its own name and
    folders, the database and broker at their shared address."""
    return {
        "PATH": os.environ["PATH"],
        **SHARED,
        "NODE_NAME": node.name,
        "DATABASE_URL": f"postgres://postgres@{DATA}:{PG_PORT}/{DATABASE}",
        "REDIS_URL": f"redis://{DATA}:{REDIS_PORT}/0",
        "STATUSPAGE_VAR_DIR": str(node.folder / "var"),
        "STATUS_SNAPSHOT_DIR": str(node.snapshot),
    }


def node_commands(node: Node) -> dict[str, list[str]]:
    """What every node runs (docs/deploy.md, "Every node")."""
    celery = [PYTHON, "-m", "celery", "-A", "statuspage"]
    return {
        "web": [
            GUNICORN,
            "statuspage.wsgi",
            "-k",
            "gthread",
            "-w",
            str(WEB_WORKERS),
            "--threads",
            "4",
            "-b",
            f"{node.place.address}:{APP_PORT}",
        ],
        "notify": [*celery, "worker", "-Q", "notify", "-c", "2", "-n", f"notify@{node.name}"],
        "work": [
            *celery,
            "worker",
            "-Q",
            f"probes,default,node.{node.name}",
            "-c",
            "2",
            "-n",
            f"work@{node.name}",
        ],
        "scheduler": [*celery, "beat"],
    }


# --- processes ---------------------------------------------------------------------------------
def stop(*processes: subprocess.Popen) -> None:
    """SIGTERM to each session's leader (a worker stops its own pool; all stop at once), then
    SIGKILL to what is left of each session."""
    running = [process for process in processes if process.poll() is None]
    for process in running:
        process.terminate()
    deadline = time.monotonic() + 15
    for process in running:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    for process in processes:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)


def manage(node: Node, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [PYTHON, "manage.py", *args], cwd=ROOT, env=node_environment(node), stdout=subprocess.DEVNULL
    )


def start_node(node: Node, *names: str) -> None:
    """The node's processes of `names`, or all of them."""
    env = node_environment(node)
    for name, command in node_commands(node).items():
        if name in names or not names:
            node.processes[name] = start(f"{node.name}-{name}", node.place.command(command), env=env)


def discard_nodes() -> None:
    """A run's nodes are not used again: SIGKILL to all their processes, which nothing measures."""
    for node in NODES:
        kill_node(node)
        node.processes.clear()


def kill_node(node: Node) -> None:
    """SIGKILL to every process in the node's namespace at once: no warm shutdown anywhere. A
    second round catches a child forked while the first went on."""
    for _ in range(2):
        for pid in namespaces.pids(node.place):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        for process in node.processes.values():
            process.wait()


def answers(url: str) -> bool:
    """Whether `url` answers 200 to a request for the site's host, as nginx sends it."""
    try:
        request = urllib.request.Request(url, headers={"Host": "127.0.0.1"})
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status == 200
    except (OSError, ValueError):
        return False


# --- the outside world: probe targets and the reader ---------------------------------------------
async def _target(reader, writer) -> None:
    with contextlib.suppress(Exception):
        while True:
            await reader.readuntil(b"\r\n\r\n")
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok")
            await writer.drain()
    writer.close()


def serve_targets() -> None:
    """The targets, 100 to a port, as services on many hosts look to the probes' per-host bound."""
    ready = threading.Event()
    ports = (TARGETS + TARGETS_PER_PORT - 1) // TARGETS_PER_PORT

    async def main():
        for offset in range(ports):
            await asyncio.start_server(_target, OUTSIDE, TARGET_PORT + offset, backlog=1024)
        ready.set()
        await asyncio.Event().wait()

    threading.Thread(target=lambda: asyncio.run(main()), daemon=True).start()
    if not ready.wait(10):
        raise SystemExit("the probe targets did not start")


class Reader(threading.Thread):
    """A reader of the public site through nginx: the overview and the incident, in turn."""

    def __init__(self, paths: list[str]):
        super().__init__(daemon=True)
        self.paths = paths
        self.answers: Counter[int] = Counter()
        self.running = True

    def run(self) -> None:
        turn = 0
        while self.running:
            url = f"http://127.0.0.1:{NGINX_PORT}{self.paths[turn % len(self.paths)]}"
            try:
                with urllib.request.urlopen(url, timeout=15) as response:
                    response.read()
                    status = response.status
            except urllib.error.HTTPError as error:
                status = error.code
            except OSError:
                status = 0
            self.answers[status] += 1
            turn += 1
            time.sleep(0.1)

    def errors(self) -> int:
        return sum(n for status, n in self.answers.items() if status != 200)


def start_sink() -> Path:
    received = SCRATCH / "received.txt"
    received.touch()
    sink = [PYTHON, "scripts/smtp_sink.py", "--host", OUTSIDE, "--port", str(SMTP_PORT)]
    start("sink", [*sink, "--out", str(received), "--senders"])
    if not wait_until(lambda: _listening(OUTSIDE, SMTP_PORT), 15):
        raise SystemExit("the SMTP sink did not start")
    return received


def _listening(host: str, port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex((host, port)) == 0


@dataclass
class Copy:
    message_id: str
    sender: str
    at: float


def received(path: Path) -> list[Copy]:
    copies = []
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) == 3:
            copies.append(Copy(parts[0], parts[1], float(parts[2])))
    return copies


sys.path.insert(0, str(ROOT))
import django  # noqa: E402

django.setup()  # connects lazily: PostgreSQL is started in main()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.utils import timezone  # noqa: E402

from incidents.channels.emails import message_domain  # noqa: E402
from incidents.channels.outbox import MARK_WITHIN_SECONDS  # noqa: E402

# A sender looks at its marks' age after each mail's answer: the last mail it leaves unmarked
# can be answered this much after MARK_WITHIN_SECONDS (the sink times a mail when it accepts it).
ONE_ANSWER_SECONDS = 0.05
from incidents.lifecycle.commands import DeclareIncident, PostUpdate  # noqa: E402
from incidents.lifecycle.opening import declare_incident  # noqa: E402
from incidents.lifecycle.updates import post_update  # noqa: E402
from incidents.models import (  # noqa: E402
    Component,
    Delivery,
    DeliveryState,
    Incident,
    Metric,
    Probe,
    ProbeKind,
    ProbeRun,
    RunState,
    ScheduledRun,
    SchedulerLease,
    Subscriber,
)
from incidents.services.probes import validate_probe  # noqa: E402
from statuspage.celery import app as celery_app  # noqa: E402


# --- the site ----------------------------------------------------------------------------------
def set_up_site() -> tuple[Incident, list[Probe]]:
    """An incident opened before anyone subscribed, the subscribers, and the probes (not yet
    due), on components of ten metrics each."""
    call_command("migrate", verbosity=0)
    api = Component.objects.create(slug="api", name={"en": "API"})
    incident = declare_incident(
        DeclareIncident(
            title="Drill: mail delayed",
            language="en",
            body="Investigating.",
            component_statuses={api: "degraded_performance"},
        ),
        actor=None,
    )
    now = timezone.now()
    Subscriber.objects.bulk_create(
        (
            Subscriber(email=f"s{i:06}@{DOMAIN}", language="en", confirmed_at=now, created_at=now)
            for i in range(SUBSCRIBERS)
        ),
        batch_size=2000,
    )
    components = Component.objects.bulk_create(
        Component(slug=f"service-{n}", name={"en": f"Service {n}"}, position=n + 1)
        for n in range((TARGETS + 99) // 100)
    )
    metrics = Metric.objects.bulk_create(
        Metric(
            component=components[i // 100],
            slug=f"latency-{i}",
            name={"en": f"Latency {i}"},
            unit="ms",
            window=1,
            expected_interval=INTERVAL,
        )
        for i in range(TARGETS)
    )
    probes = [
        Probe(
            name=f"target {i}",
            kind=ProbeKind.HTTP,
            metric=metric,
            url=f"http://{OUTSIDE}:{TARGET_PORT + i // TARGETS_PER_PORT}/t/{i}",
            interval=INTERVAL,
            timeout=PROBE_TIMEOUT,
            connect_timeout=PROBE_TIMEOUT,
            read_timeout=PROBE_TIMEOUT,
            next_run_at=None,
        )
        for i, metric in enumerate(metrics)
    ]
    for probe in probes:
        validate_probe(probe)
    return incident, Probe.objects.bulk_create(probes)


def schedule(probes: list[Probe]) -> None:
    """The probes' first ticks spread over one interval from a few seconds on."""
    first = timezone.now() + dt.timedelta(seconds=3)
    for i, probe in enumerate(probes):
        probe.next_run_at = first + dt.timedelta(seconds=INTERVAL * i / len(probes))
    Probe.objects.bulk_update(probes, ["next_run_at"], batch_size=1000)


# --- the scheduler lease -----------------------------------------------------------------------
def lease() -> SchedulerLease | None:
    """The scheduler's lease while someone holds it."""
    return SchedulerLease.objects.filter(name="scheduler", expires_at__gt=timezone.now()).first()


def lease_holder() -> str | None:
    held = lease()
    return held.holder if held else None


def failover_seconds(event_at: dt.datetime, *, survivor: Node, term_before: int) -> float | None:
    """From the event to the first cluster job (not a node's own: those are named job@node) that
    ran as sent by the survivor's scheduler under a later term; None while there is none."""
    first = (
        ScheduledRun.objects.filter(node=survivor.name, term__gt=term_before, started_at__gt=event_at)
        .exclude(job__contains="@")
        .order_by("started_at")
        .values_list("started_at", flat=True)
        .first()
    )
    return (first - event_at).total_seconds() if first else None


def runs_under_an_old_term(since: dt.datetime) -> int:
    """Cluster-wide job runs sent under an older term of the lease than a run of the same job
    before them: a scheduler that went on sending after another took over. (A slot sent by both
    runs once whatever happens: its claim is unique.)"""
    count, newest = 0, {}
    runs = ScheduledRun.objects.filter(started_at__gte=since).exclude(job__contains="@")
    for job, term in runs.order_by("job", "slot").values_list("job", "term"):
        if term < newest.get(job, 0):
            count += 1
        newest[job] = max(term, newest.get(job, 0))
    return count


# --- counting ----------------------------------------------------------------------------------
def probe_ticks(probes: list[Probe], *, since: dt.datetime, until: dt.datetime) -> tuple[int, int]:
    """(runs less than half an interval after the probe's previous run, the most intervals in
    a row any probe went without a successful run). Runs are counted by their scheduled tick."""
    runs: dict[int, list[tuple[dt.datetime, str]]] = {}
    rows = ProbeRun.objects.filter(probe__in=probes, scheduled_at__gte=since, scheduled_at__lte=until)
    for probe_id, at, state in rows.exclude(state=RunState.SKIPPED).values_list(
        "probe_id", "scheduled_at", "state"
    ):
        runs.setdefault(probe_id, []).append((at, state))
    twice, missed = 0, 0
    interval = dt.timedelta(seconds=INTERVAL)
    for probe in probes:
        ticks = sorted(runs.get(probe.pk, []))
        twice += sum(1 for (a, _), (b, _) in zip(ticks, ticks[1:], strict=False) if b - a < interval / 2)
        good = [at for at, state in ticks if state == RunState.OK]
        edges = [since, *good, until]
        gaps = [(later - earlier) / interval for earlier, later in zip(edges, edges[1:], strict=False)]
        missed = max(missed, *(round(gap) - 1 for gap in gaps))
    return twice, missed


@dataclass
class Outcome:
    lost: int = 0
    duplicates: int = 0
    window_duplicates: int = 0
    ticks_twice: int = 0
    ticks_missed: int = 0
    failover_s: float | None = None
    page_errors: int = 0

    def goal_met(self) -> bool:
        return (
            self.lost == 0
            and self.duplicates == 0
            and self.ticks_twice == 0
            and self.ticks_missed <= 2
            and self.failover_s is not None
            and self.failover_s <= 2 * LEASE_SECONDS
            and self.page_errors == 0
        )

    def line(self, kind: str) -> str:
        failover = "n/a" if self.failover_s is None else f"{self.failover_s:.1f}"
        return (
            f"drill=cluster {kind} lost={self.lost} duplicates={self.duplicates} "
            f"smtp_window_duplicates={self.window_duplicates} ticks_twice={self.ticks_twice} "
            f"ticks_missed={self.ticks_missed} scheduler_failover_s={failover} "
            f"page_errors={self.page_errors} goal={'met' if self.goal_met() else 'missed'}"
        )


def count_mail(
    copies: list[Copy], expected: set[str], *, victim: Node, event_at: float, unmarked_at_event: set[str]
) -> tuple[int, int, int]:
    """(lost, duplicates, smtp_window_duplicates), as the module's docstring defines them."""
    by_id: dict[str, list[Copy]] = {}
    for copy in copies:
        if copy.message_id in expected:
            by_id.setdefault(copy.message_id, []).append(copy)
    lost = len(expected - set(by_id))
    duplicates = window = 0
    for message_id, got in by_id.items():
        if len(got) < 2:
            continue
        first = min(got, key=lambda copy: copy.at)
        in_window = (
            first.sender == victim.place.address
            and first.at <= event_at + MARK_WITHIN_SECONDS + ONE_ANSWER_SECONDS
            and message_id in unmarked_at_event
        )
        if in_window:
            window += len(got) - 1
        else:
            duplicates += len(got) - 1
    return lost, duplicates, window


# --- a run ---------------------------------------------------------------------------------------
def start_cluster() -> None:
    """Both nodes, B's scheduler once A's holds the lease (so the lease moves when A goes)."""
    start_node(A)
    start_node(B, "web", "notify", "work")
    if not wait_until(lambda: answers(f"http://{A.place.address}:{APP_PORT}/"), 60):
        raise SystemExit("node a's web server did not answer")
    if not wait_until(lambda: lease_holder() == A.name, 4 * LEASE_SECONDS):
        raise SystemExit(f"node a's scheduler did not take the lease (holder: {lease_holder()})")
    start_node(B, "scheduler")
    wait_for_node(B)
    wait_for_workers(A)


def rejoin(node: Node) -> None:
    """A node starting again after it was lost: a standby while the other holds the lease."""
    start_node(node)
    wait_for_node(node)


def wait_for_node(node: Node) -> None:
    if not wait_until(lambda: answers(f"http://{node.place.address}:{APP_PORT}/"), 60):
        raise SystemExit(f"node {node.name}'s web server did not answer")
    wait_for_workers(node)


def wait_for_workers(node: Node) -> None:
    workers = {f"{kind}@{node.name}" for kind in ("notify", "work")}

    def all_answer() -> bool:
        replies = celery_app.control.ping(destination=sorted(workers), timeout=1.0)
        return {name for reply in replies for name in reply} == workers

    if not wait_until(all_answer, 60, every=0.5):
        raise SystemExit(f"node {node.name}'s workers did not answer")


def run(kind: str, incident: Incident, probes: list[Probe], reader: Reader, sink: Path) -> Outcome:
    victim = next(node for node in NODES if node.name == lease_holder())
    survivor = next(node for node in NODES if node is not victim)
    say(f"{kind}: node {victim.name} holds the scheduler's lease")
    time.sleep(INTERVAL)  # one full round of probes with both nodes
    reader.answers.clear()
    copies_before = len(received(sink))
    posted_at = timezone.now()
    update = post_update(
        incident,
        PostUpdate(status="identified", language="en", body={"en": f"Drill {kind}: a fix is rolling out."}),
        actor=None,
    )
    expected = {
        f"<{key}@{message_domain()}>"
        for key in Delivery.objects.filter(update=update).values_list("idempotency_key", flat=True)
    }
    say(f"{kind}: update posted, {len(expected)} deliveries")

    def half_received() -> bool:
        return len(received(sink)) - copies_before >= len(expected) // 2

    if not wait_until(half_received, TIMEOUT, every=0.05):
        raise SystemExit("the fan-out did not reach half of its mails")
    term_before = lease().term
    if kind == "kill":
        kill_node(victim)
    else:
        namespaces.blackhole(victim.place, [DATA], on=True)
    # The event is when it has happened: the victim gone, or its routes to DATA gone.
    event_at, event_time = timezone.now(), time.time()
    if kind == "kill":
        say(f"{kind}: SIGKILL to every process of node {victim.name}")
    else:
        say(f"{kind}: node {victim.name} cut off from {DATA} (database, broker)")
    unmarked = {
        f"<{key}@{message_domain()}>"
        for key in Delivery.objects.filter(update=update, state=DeliveryState.SENDING).values_list(
            "idempotency_key", flat=True
        )
    }
    if kind == "partition":
        time.sleep(max(0.0, CUT_SECONDS - (time.time() - event_time)))
        namespaces.blackhole(victim.place, [DATA], on=False)
        say(f"{kind}: node {victim.name} reaches {DATA} again")

    def all_received() -> bool:
        return expected <= {copy.message_id for copy in received(sink)}

    wait_until(all_received, TIMEOUT, every=0.5)
    failover = wait_until(
        lambda: failover_seconds(event_at, survivor=survivor, term_before=term_before), 4 * LEASE_SECONDS
    )
    say(f"{kind}: mails done; waiting for the probes' last ticks")
    # Late copies count as duplicates; the ticks due by now end within a timeout.
    time.sleep(PROBE_TIMEOUT + 1)
    until = timezone.now() - dt.timedelta(seconds=PROBE_TIMEOUT + 1)
    twice, missed = probe_ticks(probes, since=posted_at, until=until)
    lost, duplicates, window = count_mail(
        received(sink)[copies_before:],
        expected,
        victim=victim,
        event_at=event_time,
        unmarked_at_event=unmarked,
    )
    states = dict(
        Delivery.objects.filter(update=update).values_list("state").annotate(n=Count("id")).order_by()
    )
    say(f"{kind}: delivery states {states}; reader answers {dict(reader.answers)}")
    outcome = Outcome(
        lost=lost,
        duplicates=duplicates,
        window_duplicates=window,
        ticks_twice=twice + runs_under_an_old_term(posted_at),
        ticks_missed=missed,
        failover_s=failover,
        page_errors=reader.errors(),
    )
    if kind == "kill":
        say(f"{kind}: node {victim.name} starts again")
        rejoin(victim)
    return outcome


# --- setting up and tearing down -----------------------------------------------------------------
def unavailable() -> str | None:
    for program in ("nginx",):
        if shutil.which(program) is None:
            return f"no {program}"
    if not Path(GUNICORN).exists():
        return "no gunicorn in .venv"
    return private_services.unavailable() or namespaces.unavailable()


def build_network() -> None:
    namespaces.build([node.place for node in NODES], local=[DATA, OUTSIDE])


def remove_network() -> None:
    namespaces.remove([node.place for node in NODES], local=[DATA, OUTSIDE])


def collect_static() -> list[subprocess.Popen]:
    """What a node does first when it joins: its static files (no database needed, so while the
    database is being made)."""
    return [manage(node, "collectstatic", "--noinput") for node in NODES]


def export_snapshots(collecting: list[subprocess.Popen]) -> None:
    """Then its snapshot, before it takes traffic; the nodes side by side."""
    if any(process.wait() != 0 for process in collecting):
        raise SystemExit("manage.py collectstatic failed on a node")
    if any(process.wait() != 0 for process in [manage(node, "export_site") for node in NODES]):
        raise SystemExit("manage.py export_site failed on a node")


def main() -> int:
    missing = unavailable()
    if missing:
        shutil.rmtree(SCRATCH, ignore_errors=True)
        print(f"drill=cluster skipped: {missing}", flush=True)
        return 2 if REQUIRE_SERVICES else 0
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    lines: list[str] = []
    nginx = None
    try:
        build_network()
        collecting = collect_static()
        started.append(private_services.start_redis(REDIS_PORT, bind=("127.0.0.1", DATA)))
        private_services.start_postgres(
            SCRATCH, PG_PORT, DATABASE, listen=("127.0.0.1", DATA), clients="10.251.0.0/16"
        )
        say("migrating the drill database (once, from here)")
        incident, probes = set_up_site()
        say(
            f"{SUBSCRIBERS} subscribers, {TARGETS} probes; each node collects its static files and exports its snapshot"
        )
        export_snapshots(collecting)
        serve_targets()
        sink = start_sink()
        (SCRATCH / "nginx").mkdir()
        nginx = bench_stack.start_nginx(
            SCRATCH / "nginx",
            B.snapshot / "current",
            proxy_port=NGINX_PORT,
            upstreams=[f"{node.place.address}:{APP_PORT}" for node in NODES],
        )
        reader = Reader(["/", f"/incidents/{incident.slug}/"])
        reader.start()
        schedule(probes)
        say(f"probes every {INTERVAL} s; scheduler lease {LEASE_SECONDS} s")
        say("starting node a, then node b")
        start_cluster()
        for kind in RUNS:
            outcome = run(kind, incident, probes, reader, sink)
            lines.append(outcome.line(kind))
            print(lines[-1], flush=True)
        reader.running = False
    finally:
        discard_nodes()
        if nginx is not None:
            bench_stack.stop(nginx)
        stop(*started)
        with contextlib.suppress(Exception):
            connection.close()
            private_services.pg_ctl(SCRATCH, PG_PORT, "stop")
        remove_network()
        if len(lines) < len(RUNS) or any("goal=met" not in line for line in lines):
            show_errors_in_logs(SCRATCH, say)
        if os.environ.get("DRILL_CLUSTER_KEEP") != "1":
            shutil.rmtree(SCRATCH, ignore_errors=True)
        say(f"took {time.monotonic() - RUN.began:.0f} s")
    met = len(lines) == len(RUNS) and all("goal=met" in line for line in lines)
    if len(lines) < len(RUNS):
        print("drill=cluster goal=missed (did not finish)", flush=True)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
