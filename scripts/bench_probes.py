"""Benchmark of the probe system: local HTTP targets (1,000 by default), every 30 s, 5 s
timeout, 90 s, measured from one region or from several.

Run by `make bench-probes` (TARGETS=, REGIONS=). Starts, as separate processes: a target server
on 127.0.0.1 (80 % answer at once, 10 % after 2 s, 10 % accept the connection and never answer),
the Celery beat scheduler (dispatcher and watchdog) and a Celery worker consuming the `probes`
queue: the real dispatcher and worker code, through Redis. The server listens on one port per
100 targets from the target port: to the workers' per-host bound and connection pools, the
targets are services on many hosts, not thousands of paths of one. With REGIONS=1 that worker probes
(the home region, as a single-place install runs); with more, the home region is inactive and
each region gets its own worker started as a region's worker is (broker only, no database),
every target is probed from every region, and the `probes` worker stores the signed results
and decides status by quorum. Needs REDIS_URL; uses a database of its own
(`<DATABASE_URL's name>_bench` on PostgreSQL, a SQLite file otherwise).

The last line is:
probes=<n> regions=<r> expected_runs=<a> done_runs=<b> lateness_p99_ms=<x> hanging_cut_p99_ms=<y>
stuck=<z> breakers_open=<k> cpu_s=<c> cpu_ms_per_run=<m> quorum_p99_ms=<q>
where expected/done count the answering targets' runs due in the 90 s (in every region), cpu_s
is the CPU time of the scheduler and worker processes (not the target server, database or
Redis), cpu_ms_per_run divides it by the runs that made a request (skipped runs excluded), and
quorum_p99_ms is, per target and tick, the time from the last region's result to its storing
(where the quorum is decided).
"""

import argparse
import asyncio
import math
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
# Targets per host:port: 10,000 targets on one port would all share PROBE_CONCURRENCY_PER_HOST.
TARGETS_PER_PORT = 100
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# --- the target server (a separate process) -------------------------------------------
async def _answer(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            path = head.split(b" ", 2)[1].decode()
            index = int(path.rsplit("/", 1)[1])
            behaviour = index % 10
            if behaviour == 9:
                await asyncio.sleep(3600)  # accepted, never answered
            elif behaviour == 8:
                await asyncio.sleep(2)
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nok")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, ValueError, IndexError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


def serve_targets(port: int, ports: int) -> None:
    async def main():
        servers = [
            await asyncio.start_server(_answer, "127.0.0.1", port + i, backlog=2048, reuse_address=True)
            for i in range(ports)
        ]
        await asyncio.gather(*(server.serve_forever() for server in servers))

    asyncio.run(main())


# --- helpers ----------------------------------------------------------------------------
def bench_database_url(tmp: Path) -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        return f"sqlite:///{tmp / 'bench.sqlite3'}"
    parts = urlsplit(url)
    name = parts.path.lstrip("/") + "_bench"
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    import psycopg  # only needed for PostgreSQL

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


def session_cpu_seconds(session_ids: set[int]) -> float:
    """CPU (user + system) of every live process in the given sessions, children included."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) in session_ids:  # field 6 of stat: session id
            total += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
    return total / CLOCK_TICKS


def thread_cpu(pid: int) -> list[tuple[int, float]]:
    """CPU seconds of each thread of a process, by thread id (creation order)."""
    threads = []
    for stat in sorted(Path(f"/proc/{pid}/task").glob("*/stat"), key=lambda p: int(p.parent.name)):
        fields = stat.read_text().rsplit(")", 1)[1].split()
        threads.append((int(stat.parent.name), (int(fields[11]) + int(fields[12])) / CLOCK_TICKS))
    return threads


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--targets", type=int, default=1000)
    parser.add_argument("--regions", type=int, default=1)
    parser.add_argument("--port", type=int, default=int(os.environ.get("BENCH_TARGET_PORT", "8480")))
    parser.add_argument("--seconds", type=int, default=90)
    parser.add_argument("--interval", type=int, default=30)
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--pool", choices=["solo", "prefork"], default=os.environ.get("BENCH_POOL", "solo"))
    parser.add_argument("--serve-targets", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--ports", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_targets:
        serve_targets(args.serve_targets, args.ports)
        return 0
    if not os.environ.get("REDIS_URL"):
        print(
            "make bench-probes needs a Redis broker: set REDIS_URL=redis://127.0.0.1:6379/<db>",
            file=sys.stderr,
        )
        return 2

    tmp = Path(tempfile.mkdtemp(prefix="bench-probes-"))
    env = {
        **os.environ,
        "DATABASE_URL": bench_database_url(tmp),
        "STATUSPAGE_VAR_DIR": str(tmp),
        "OUTBOUND_ALLOW_PRIVATE_TARGETS": "1",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "LOG_LEVEL": "WARNING",
    }
    os.environ.update(env)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)

    import django

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "statuspage.settings")
    django.setup()
    import datetime as dt

    import redis
    from django.utils import timezone

    from incidents.models import (
        BreakerState,
        CircuitBreaker,
        Component,
        Metric,
        Probe,
        ProbeKind,
        ProbeRegion,
        ProbeRun,
        RunState,
    )
    from incidents.probes.base import target_of
    from incidents.services.bulk import update_rows
    from incidents.services.probes import breaker_key, validate_probe
    from incidents.services.regions import key_of

    redis.Redis.from_url(env["REDIS_URL"]).flushdb()
    started = {}

    def start(name, command):
        log = open(tmp / f"{name}.log", "wb")
        started[name] = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )

    ports = str(math.ceil(args.targets / TARGETS_PER_PORT))
    start("targets", [sys.executable, __file__, "--serve-targets", str(args.port), "--ports", ports])

    # 1,000 probes, each feeding its own metric; 100 components of 10 metrics.
    components = Component.objects.bulk_create(
        [Component(slug=f"bench-{c}", name={"en": f"Bench {c}"}) for c in range(math.ceil(args.targets / 10))]
    )
    metrics = Metric.objects.bulk_create(
        [
            Metric(
                component=components[i // 10],
                slug=f"latency-{i}",
                name={"en": f"Latency {i}"},
                unit="ms",
                window=5,
                expected_interval=args.interval,
                degraded_threshold=1000,
                partial_outage_threshold=1900,
                major_outage_threshold=4000,
            )
            for i in range(args.targets)
        ]
    )
    probes = [
        Probe(
            name=f"target {i}",
            kind=ProbeKind.HTTP,
            metric=metrics[i],
            url=f"http://127.0.0.1:{args.port + i // TARGETS_PER_PORT}/t/{i}",
            interval=args.interval,
            timeout=args.timeout,
            connect_timeout=args.timeout,
            read_timeout=args.timeout,
            next_run_at=timezone.now() + dt.timedelta(days=1),  # not yet: set when all is up
        )
        for i in range(args.targets)
    ]
    for probe in probes:
        validate_probe(probe)
    Probe.objects.bulk_create(probes)

    celery = [sys.executable, "-m", "celery", "-A", "statuspage"]
    quiet = ["--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "warning"]
    start(
        "worker",
        celery
        + ["worker", "-Q", "probes"]
        + (["-P", "solo"] if args.pool == "solo" else ["-P", "prefork", "-c", "1"])
        + quiet,
    )
    regions = []
    if args.regions > 1:
        ProbeRegion.objects.update(active=False)
        regions = [ProbeRegion.objects.create(name=f"region-{n}") for n in range(1, args.regions + 1)]
        for region in regions:
            region_env = {**env, "PROBE_REGION": region.name, "PROBE_REGION_KEY": key_of(region)}
            region_env.pop("DATABASE_URL")  # a region's worker holds no database credentials
            log = open(tmp / f"{region.name}.log", "wb")
            started[region.name] = subprocess.Popen(
                celery + ["worker", "-Q", region.queue, "-P", "solo", "-n", f"{region.name}@%h"] + quiet,
                cwd=ROOT, env=region_env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
    probing = ["worker", *(r.name for r in regions)]
    start("beat", celery + ["beat", "-l", "warning", "-s", str(tmp / "beat-schedule")])
    from statuspage.celery import app

    deadline = time.monotonic() + 90
    while len(app.control.ping(timeout=1.0)) < 1 + len(regions):
        if time.monotonic() > deadline:
            print(f"the worker did not start; see {tmp}/worker.log", file=sys.stderr)
            return 1
    time.sleep(2)

    # First runs spread over one interval from T0, as save_probe spreads them.
    t0 = timezone.now() + dt.timedelta(seconds=2)
    rng = random.Random(1)
    for probe in probes:
        probe.next_run_at = t0 + dt.timedelta(seconds=rng.uniform(0, args.interval))
    # One statement: bulk_update's CASE per row took seconds for 10,000 probes, and the first
    # runs, due from T0, became visible to the dispatcher only when it committed, late.
    update_rows(Probe, ["next_run_at"], [(probe.pk, probe.next_run_at) for probe in probes])
    cpu_start_each = {name: session_cpu_seconds({started[name].pid}) for name in (*probing, "beat")}
    end = t0 + dt.timedelta(seconds=args.seconds)
    time.sleep(max(0.0, (end - timezone.now()).total_seconds()))

    # Stop scheduling; let runs due in the window end (the hard deadline bounds this).
    beat_cpu_at_end = session_cpu_seconds({started["beat"].pid})
    os.killpg(started["beat"].pid, signal.SIGTERM)
    window = ProbeRun.objects.filter(scheduled_at__gte=t0, scheduled_at__lt=end)
    drain_until = time.monotonic() + args.timeout + 10
    while time.monotonic() < drain_until and window.filter(state__in=["pending", "running"]).exists():
        time.sleep(0.5)
    cpu_each = {name: session_cpu_seconds({started[name].pid}) - cpu_start_each[name] for name in probing} | {
        "scheduler": beat_cpu_at_end - cpu_start_each["beat"]
    }
    cpu_s = sum(cpu_each.values())
    worker_threads = thread_cpu(started["worker"].pid) if args.pool == "solo" else []

    def kind_of(index: int) -> str:
        return {9: "hanging", 8: "slow"}.get(index % 10, "fast")

    expected = 0
    places = max(1, len(regions))
    for probe in probes:
        if kind_of(int(probe.name.split()[1])) == "hanging":
            continue
        due = probe.next_run_at
        while due < end:
            expected += places
            due += dt.timedelta(seconds=args.interval)
    runs = list(window.select_related("probe"))
    by_kind: dict[str, list] = {"fast": [], "slow": [], "hanging": []}
    for run in runs:
        by_kind[kind_of(int(run.probe.name.split()[1]))].append(run)
    answering = by_kind["fast"] + by_kind["slow"]
    done = sum(1 for r in answering if r.state in (RunState.OK, RunState.FAILED))
    checks = [r for r in runs if r.state != RunState.SKIPPED and r.started_at]
    lateness = [(r.started_at - r.scheduled_at).total_seconds() * 1000 for r in checks]
    cuts = [
        (r.finished_at - r.started_at).total_seconds() * 1000
        for r in by_kind["hanging"]
        if r.state == RunState.TIMEOUT
    ]
    stuck = window.filter(state__in=["pending", "running"]).count()
    hanging_targets = {
        breaker_key(region, target_of(p.url))
        for p in probes
        if kind_of(int(p.name.split()[1])) == "hanging"
        for region in ([r.name for r in regions] or [""])
    }
    breakers_open = CircuitBreaker.objects.filter(
        target__in=hanging_targets, state__in=[BreakerState.OPEN, BreakerState.HALF_OPEN]
    ).count()
    states = {state: sum(1 for r in runs if r.state == state) for state in RunState.values}
    last_of_tick: dict = {}
    for run in answering:
        if run.recorded_at and run.finished_at:
            key = (run.probe_id, run.scheduled_at)
            if key not in last_of_tick or run.recorded_at > last_of_tick[key].recorded_at:
                last_of_tick[key] = run
    quorum_ms = [(r.recorded_at - r.finished_at).total_seconds() * 1000 for r in last_of_tick.values()]

    for process in started.values():
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in started.values():
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)

    print(f"database={env['DATABASE_URL'].split('://')[0]} broker=redis logs={tmp}")
    print(f"worker pool={args.pool} worker threads cpu_s (since start): {worker_threads}")
    print("cpu_s by process group: " + " ".join(f"{k}={v:.2f}" for k, v in cpu_each.items()))
    print("runs in the window by state: " + " ".join(f"{k}={v}" for k, v in states.items()))
    print(
        f"answering: fast={len(by_kind['fast'])} slow={len(by_kind['slow'])}; "
        f"hanging runs={len(by_kind['hanging'])} cut: min_ms={min(cuts, default=float('nan')):.0f} "
        f"max_ms={max(cuts, default=float('nan')):.0f}; lateness p50_ms={percentile(lateness, 0.5):.0f} "
        f"max_ms={max(lateness, default=float('nan')):.0f}; requests={len(checks)}"
    )
    print(
        f"probes={args.targets} regions={places} expected_runs={expected} done_runs={done} "
        f"lateness_p99_ms={percentile(lateness, 0.99):.0f} hanging_cut_p99_ms={percentile(cuts, 0.99):.0f} "
        f"stuck={stuck} breakers_open={breakers_open} cpu_s={cpu_s:.2f} "
        f"cpu_ms_per_run={cpu_s * 1000 / max(1, len(checks)):.2f} "
        f"quorum_p99_ms={percentile(quorum_ms, 0.99):.0f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
