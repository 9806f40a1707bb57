#!/usr/bin/env python
"""Probe regions drill: three regions in network namespaces of their own, status by quorum.

    make drill-regions         (or: .venv/bin/python scripts/drill_regions.py; needs root)

Starts PostgreSQL (127.0.0.1:8860) and redis-server (8861, on loopback and on the address the
regions reach, 10.250.0.1) of its own, and three network namespaces, each joined to the root
namespace by a veth pair with a /30 of its own (10.250.<n>.0/30) and routing everything through
it. The centre (one probes worker, `-Q probes -P solo`, and beat) runs in the root namespace with
the database; each region's worker runs in its namespace as a region runs it: PROBE_REGION, its
PROBE_REGION_KEY, the broker at 10.250.0.1, no database, another SECRET_KEY. The home region is
made inactive, so only the three regions measure. The probes' targets answer on 127.0.0.1;
a relay on 10.250.0.1:8863 stands in front of them and tells the regions apart by their address:
it adds each region's delay (20, 60, 120 ms) and, when a region's path is broken, answers 500.
Each region's reachability check is a plain server on 10.250.0.1:8864, behind no relay.

Two components with one HTTP probe each (interval DRILL_REGIONS_INTERVAL, default 10 s; the
dispatcher every second; a window of one sample, so a region's verdict is its latest run).
Changes of the network are made half-way between two ticks. One line per check, then:
  a. healthy: every metric reported by the three regions, every component operational.
  b. blackhole: region C's routes to 10.250.0.1 become a blackhole (neither broker nor targets):
     no component changes status, and C counts as no data once it has missed
     PROBE_REGION_MISSED_TICKS ticks (no_data_after_ticks: C's ticks without a result when the
     metric's quorum first leaves it out). Then the route comes back and C reports again.
  c. broken: the relay answers 500 to regions A and B: the components go down at the first tick
     both fail (down_after_ticks: ticks from the first failing one to the change), the change
     dated from that tick (ComponentStatusChange, the status period).
  d. restored: the components recover after PROBE_QUORUM_RECOVERY_TICKS good ticks, no sooner
     (recovered_after_ticks), the recovery dated from the first good tick.
Last line:
  drill=regions blackhole_changes= no_data_after_ticks= down_after_ticks= dated_from_first_tick=
  recovered_after_ticks= goal=met|missed
Where network namespaces cannot be made (not root, no `ip`, a container without the right), it
prints `drill=regions skipped: <why>` and exits 0, or 2 under REQUIRE_SERVICES=1. Namespaces,
veth pairs and the address on `lo` are removed at the end, also when the drill fails.
"""

import asyncio
import contextlib
import datetime as dt
import os
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import namespaces
import private_services
from drill_logs import show_errors_in_logs
from drill_processes import Scratch, wait_until

ROOT = Path(__file__).resolve().parent.parent
PYTHON = str(ROOT / ".venv/bin/python")
PG_PORT, REDIS_PORT, TARGET_PORT, RELAY_PORT, REFERENCE_PORT = 8860, 8861, 8862, 8863, 8864
# The address the regions reach the centre at (broker, relay, reference): on the root
# namespace's `lo`, routed to from each namespace through its veth pair.
CENTRE = "10.250.0.1"
INTERVAL = int(os.environ.get("DRILL_REGIONS_INTERVAL", "10"))
TIMEOUT = min(3, INTERVAL - 1)
MISSED_TICKS, RECOVERY_TICKS = 2, 3
REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
RUN = Scratch("drill-regions-", cwd=ROOT)
SCRATCH = RUN.folder


@dataclass
class Region:
    name: str
    number: int
    delay_ms: int
    broken: bool = False

    @property
    def place(self) -> namespaces.Place:
        return namespaces.Place(f"drill-{self.name}", f"drillv{self.number}", "10.250", self.number)

    @property
    def address(self) -> str:
        return self.place.address


REGIONS = [Region("eu-north", 1, 20), Region("us-east", 2, 60), Region("ap-south", 3, 120)]
A, B, C = REGIONS

os.environ.update(
    {
        "DJANGO_SETTINGS_MODULE": "statuspage.settings",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{PG_PORT}/statuspage_regions",
        "REDIS_URL": f"redis://127.0.0.1:{REDIS_PORT}/0",
        "STATUSPAGE_VAR_DIR": str(SCRATCH / "var"),
        "DEBUG": "0",
        "SECRET_KEY": "drill-regions-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "OUTBOUND_ALLOW_PRIVATE_TARGETS": "1",
        "PROBE_MIN_INTERVAL": str(min(INTERVAL, 10)),
        "PROBE_DISPATCH_EVERY": "1",
        "PROBE_REGION_MISSED_TICKS": str(MISSED_TICKS),
        "PROBE_QUORUM_RECOVERY_TICKS": str(RECOVERY_TICKS),
        # Breakers are not under test: an open one skips a region's runs (no data) for its cool-down.
        "PROBE_BREAKER_FAILURES": "1000",
        "LOG_LEVEL": "WARNING",
    }
)
started, say, start = RUN.started, RUN.say, RUN.start


# --- network namespaces ---------------------------------------------------------------------
def namespaces_missing() -> str | None:
    """Why this machine cannot run the drill, or None."""
    return private_services.unavailable() or namespaces.unavailable()


def build_network() -> None:
    namespaces.build([region.place for region in REGIONS], local=[CENTRE])


def remove_network() -> None:
    namespaces.remove([region.place for region in REGIONS], local=[CENTRE])


def blackhole(region: Region, *, on: bool) -> None:
    namespaces.blackhole(region.place, [CENTRE], on=on)


# --- targets, the relay and the reachability check ---------------------------------------------
async def _answer(reader, writer, status: str = "200 OK", body: bytes = b"ok") -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        head = f"HTTP/1.1 {status}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        writer.write(head.encode() + body)
        await writer.drain()
    writer.close()


async def _pipe(reader, writer) -> None:
    with contextlib.suppress(Exception):
        while chunk := await reader.read(65536):
            writer.write(chunk)
            await writer.drain()
    writer.close()


async def _relay(reader, writer) -> None:
    """The region's path to the targets: its delay, then the target, or a 500 when broken. The
    targets close each connection, so every run takes the path as it is at that moment."""
    peer = writer.get_extra_info("peername")[0]
    region = next((r for r in REGIONS if r.address == peer), None)
    if region is None:
        writer.close()
        return
    await asyncio.sleep(region.delay_ms / 1000)
    if region.broken:
        await _answer(reader, writer, "500 Internal Server Error", b"broken for the drill")
        return
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", TARGET_PORT)
    except OSError:
        writer.close()
        return
    await asyncio.gather(_pipe(reader, upstream_writer), _pipe(upstream_reader, writer))


def serve_in_background() -> None:
    ready = threading.Event()

    async def main():
        await asyncio.start_server(_answer, "127.0.0.1", TARGET_PORT)
        await asyncio.start_server(_relay, CENTRE, RELAY_PORT)
        await asyncio.start_server(_answer, CENTRE, REFERENCE_PORT)
        ready.set()
        await asyncio.Event().wait()

    threading.Thread(target=lambda: asyncio.run(main()), daemon=True).start()
    if not ready.wait(10):
        raise SystemExit("the targets did not start")


# --- processes ---------------------------------------------------------------------------------
def stop(process: subprocess.Popen) -> None:
    """Stops a process and, when it leads a session (a worker), whatever else runs in it."""
    leads_session = os.getsid(process.pid) == process.pid if process.poll() is None else False
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    if leads_session:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)


CELERY = [PYTHON, "-m", "celery", "-A", "statuspage"]
QUIET = ["--without-gossip", "--without-mingle", "--without-heartbeat"]


def start_region_worker(region: Region, key: str) -> subprocess.Popen:
    """As a region runs its worker: broker only, its key, not the centre's SECRET_KEY."""
    env = {
        "PATH": os.environ["PATH"],
        "DJANGO_SETTINGS_MODULE": "statuspage.settings",
        "PROBE_REGION": region.name,
        "PROBE_REGION_KEY": key,
        "REDIS_URL": f"redis://{CENTRE}:{REDIS_PORT}/0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "STATUSPAGE_VAR_DIR": str(SCRATCH / region.name),
        "OUTBOUND_ALLOW_PRIVATE_TARGETS": "1",
        "LOG_LEVEL": "WARNING",
    }
    worker = [
        *CELERY,
        "worker",
        "-Q",
        f"probes.{region.name}",
        "-P",
        "solo",
        "-n",
        f"{region.name}@%h",
        *QUIET,
    ]
    return start(region.name, region.place.command(worker), env=env)


sys.path.insert(0, str(ROOT))
import django  # noqa: E402

django.setup()  # connects lazily: PostgreSQL is started in main()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from incidents.models import (  # noqa: E402
    AuditEvent,
    Component,
    ComponentStatus,
    ComponentStatusChange,
    Metric,
    MetricHealth,
    Probe,
    ProbeKind,
    ProbeRegion,
    ProbeRun,
    RegionHealth,
    RunState,
    StatusMode,
)
from incidents.probes.sealing import region_key  # noqa: E402
from incidents.services.probes import save_probe  # noqa: E402
from incidents.services.regions import key_of, save_region  # noqa: E402


def set_up_site() -> list[Probe]:
    """The regions, and two automatic components with a probe each (not yet scheduled)."""
    call_command("migrate", verbosity=0)
    home = ProbeRegion.objects.get(name=settings.PROBE_HOME_REGION)
    home.active = False
    save_region(home, actor=None)
    for region in REGIONS:
        save_region(
            ProbeRegion(name=region.name, reference_url=f"http://{CENTRE}:{REFERENCE_PORT}/"), actor=None
        )
    probes = []
    for slug in ("api", "website"):
        component = Component.objects.create(slug=slug, name={"en": slug}, status_mode=StatusMode.AUTOMATIC)
        metric = Metric.objects.create(
            component=component,
            slug="latency",
            name={"en": "Latency"},
            unit="ms",
            window=1,
            expected_interval=INTERVAL,
            degraded_threshold=1000,
            partial_outage_threshold=2000,
            major_outage_threshold=2500,
        )
        probe = Probe(
            name=f"{slug} from every region",
            kind=ProbeKind.HTTP,
            metric=metric,
            url=f"http://{CENTRE}:{RELAY_PORT}/{slug}",
            interval=INTERVAL,
            timeout=TIMEOUT,
            connect_timeout=TIMEOUT,
            read_timeout=TIMEOUT,
        )
        probes.append(save_probe(probe, actor=None))
    Probe.objects.filter(pk__in=[p.pk for p in probes]).update(next_run_at=None)
    return probes


def latest_tick() -> dt.datetime:
    return ProbeRun.objects.order_by("-scheduled_at").values_list("scheduled_at", flat=True).first()


def sleep_to_between_ticks() -> None:
    """Sleeps until a tick's results are in and the next tick's runs have not started, so a
    change of the network lands between two ticks. A region's worker sends a tick's results
    once its runs end or a second before the watchdog's abandon time (incidents.probes.engine),
    here at the latest TIMEOUT + grace - 1 s after the tick (services.probes._grace)."""
    grace = max(0.5, min(2.0, TIMEOUT - 1 - 0.5))
    sent = TIMEOUT + grace - 1
    into_tick = (timezone.now() - latest_tick()).total_seconds() % INTERVAL
    time.sleep(((sent + INTERVAL) / 2 - into_tick) % INTERVAL)


def health_rows(probes: list[Probe]) -> list[MetricHealth]:
    return list(MetricHealth.objects.filter(metric__in=[p.metric_id for p in probes]).order_by("metric_id"))


def statuses(probes: list[Probe]) -> set[str]:
    components = [probe.metric.component_id for probe in probes]
    return set(Component.objects.filter(pk__in=components).values_list("status", flat=True))


def changes_after(last_id: int) -> list[ComponentStatusChange]:
    return list(ComponentStatusChange.objects.filter(pk__gt=last_id).order_by("pk"))


def last_change_id() -> int:
    return ComponentStatusChange.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def check(name: str, ok: bool, text: str) -> bool:
    print(f"check={name} {text} {'ok' if ok else 'MISSED'}", flush=True)
    return ok


def changed_at(change: ComponentStatusChange) -> dt.datetime:
    """When a change was made (its audit event), as against the tick it is dated from."""
    event = (
        AuditEvent.objects.filter(
            action="component.status_changed",
            subject_id=str(change.component_id),
            after__status=change.new_status,
        )
        .order_by("-at")
        .first()
    )
    return event.at


def ticks_in_state(probe: Probe, state: str, *, first: dt.datetime, last: dt.datetime, regions: int):
    """The ticks from `first` to `last` at which at least `regions` regions ended the probe's
    run in `state`."""
    runs = ProbeRun.objects.filter(probe=probe, state=state, scheduled_at__gte=first, scheduled_at__lte=last)
    counted: dict[dt.datetime, int] = {}
    for tick in runs.values_list("scheduled_at", flat=True):
        counted[tick] = counted.get(tick, 0) + 1
    return sorted(tick for tick, count in counted.items() if count >= regions)


def change_of(probe: Probe, since_id: int) -> ComponentStatusChange | None:
    return next((c for c in changes_after(since_id) if c.component_id == probe.metric.component_id), None)


def scenario(probes: list[Probe]) -> str:
    results: list[bool] = []
    ticks = INTERVAL + 2  # seconds allowed per tick in the waits below

    # a. All three regions report, everything operational.
    began = time.monotonic()
    healthy = wait_until(
        lambda: all(h.regions_reporting == 3 for h in health_rows(probes)) and len(health_rows(probes)) == 2,
        15 + 4 * ticks,
    )
    results.append(
        check(
            "healthy",
            bool(healthy) and statuses(probes) == {ComponentStatus.OPERATIONAL} and not changes_after(0),
            f"regions_reporting={','.join(str(h.regions_reporting) for h in health_rows(probes))} "
            f"statuses={','.join(sorted(statuses(probes)))} after_s={time.monotonic() - began:.1f}",
        )
    )

    # b. C's network is cut: no status changes, and C counts as no data after its missed ticks.
    sleep_to_between_ticks()
    before = last_change_id()
    blackhole(C, on=True)
    cut = time.monotonic()
    say(f"blackholed {C.name}'s routes to {CENTRE}")
    counted_out = {}

    def c_out():
        for h in health_rows(probes):
            if h.metric_id not in counted_out and h.regions_reporting == 2:
                counted_out[h.metric_id] = h.evaluated_at
        return len(counted_out) == len(probes)

    out = wait_until(c_out, (MISSED_TICKS + 3) * ticks, every=0.1)
    out_s = time.monotonic() - cut
    # A tick is missed once its deadline passed without C's result.
    # C's last tick, read once it is out: a result in flight at the cut may still have arrived.
    c_last = {h.metric_id: h.tick_at for h in RegionHealth.objects.filter(region=C.name)}
    missed = [
        int((counted_out[m] - dt.timedelta(seconds=TIMEOUT) - c_last[m]).total_seconds() // INTERVAL)
        for m in counted_out
    ]
    no_data_after = max(missed) if out and missed else -1
    time.sleep(INTERVAL)
    blackhole_changes = len(changes_after(before))
    results.append(
        check(
            "blackhole",
            bool(out) and 0 <= no_data_after <= MISSED_TICKS and blackhole_changes == 0,
            f"region={C.name} counted_out_after_missed_ticks={no_data_after} counted_out_after_s={out_s:.1f} "
            f"status_changes={blackhole_changes} statuses={','.join(sorted(statuses(probes)))}",
        )
    )
    sleep_to_between_ticks()
    blackhole(C, on=False)
    lifted = time.monotonic()
    say(f"{C.name}'s routes restored")
    back = wait_until(lambda: all(h.regions_reporting == 3 for h in health_rows(probes)), 6 * ticks)
    results.append(
        check(
            "region-back",
            bool(back),
            f"region={C.name} reporting_again_after_s={time.monotonic() - lifted:.1f}",
        )
    )

    # c. The targets break for A and B: down at the first tick both fail, dated from it.
    sleep_to_between_ticks()
    before = last_change_id()
    broke_at = timezone.now()
    A.broken = B.broken = True
    say(f"the relay answers 500 to {A.name} and {B.name}")
    down = wait_until(lambda: len(changes_after(before)) >= len(probes), 5 * ticks)
    down_after, dated = [], []
    for probe in probes:
        change = change_of(probe, before)
        failing = ticks_in_state(probe, RunState.FAILED, first=broke_at, last=timezone.now(), regions=1)
        if change is None or not failing:
            continue
        until_change = ticks_in_state(
            probe, RunState.FAILED, first=broke_at, last=changed_at(change), regions=1
        )
        down_after.append(len(until_change))
        dated.append(change.created_at == failing[0])
    down_after_ticks = max(down_after) if len(down_after) == len(probes) else -1
    dated_from_first = len(dated) == len(probes) and all(dated)
    results.append(
        check(
            "broken",
            bool(down) and down_after_ticks == 1 and dated_from_first,
            f"regions={A.name},{B.name} statuses={','.join(sorted(statuses(probes)))} "
            f"down_after_ticks={down_after_ticks} dated_from_first_tick={'yes' if dated_from_first else 'no'}",
        )
    )

    # d. Restored: operational again after the recovery ticks (ticks at which a quorum of the
    # regions measured the target well), not before; dated from the first of them.
    sleep_to_between_ticks()
    before = last_change_id()
    restored_at = timezone.now()
    A.broken = B.broken = False
    say(f"the relay passes {A.name}'s and {B.name}'s runs again")
    recovered = wait_until(lambda: len(changes_after(before)) >= len(probes), (RECOVERY_TICKS + 4) * ticks)
    recovered_after, recovery_dated = [], []
    for probe in probes:
        change = change_of(probe, before)
        if change is None:
            continue
        good = ticks_in_state(probe, RunState.OK, first=restored_at, last=changed_at(change), regions=2)
        recovered_after.append(len(good))
        recovery_dated.append(
            bool(good) and change.created_at == good[0] and change.new_status == ComponentStatus.OPERATIONAL
        )
    recovered_after_ticks = max(recovered_after) if len(recovered_after) == len(probes) else -1
    early = min(recovered_after, default=-1) < RECOVERY_TICKS
    recovery_dated_ok = len(recovery_dated) == len(probes) and all(recovery_dated)
    results.append(
        check(
            "restored",
            bool(recovered) and not early and recovered_after_ticks == RECOVERY_TICKS and recovery_dated_ok,
            f"statuses={','.join(sorted(statuses(probes)))} recovered_after_ticks={recovered_after_ticks} "
            f"dated_from_first_good_tick={'yes' if recovery_dated_ok else 'no'}",
        )
    )
    return (
        f"drill=regions blackhole_changes={blackhole_changes} no_data_after_ticks={no_data_after} "
        f"down_after_ticks={down_after_ticks} dated_from_first_tick={'yes' if dated_from_first else 'no'} "
        f"recovered_after_ticks={recovered_after_ticks} goal={'met' if all(results) else 'missed'}"
    )


def main() -> int:
    missing = namespaces_missing()
    if missing:
        shutil.rmtree(SCRATCH, ignore_errors=True)
        print(f"drill=regions skipped: {missing}", flush=True)
        return 2 if REQUIRE_SERVICES else 0
    began = time.monotonic()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    line = "drill=regions goal=missed (did not finish)"
    try:
        build_network()
        serve_in_background()
        started.append(private_services.start_redis(REDIS_PORT, bind=("127.0.0.1", CENTRE)))
        # The regions' workers need only the broker and their keys (a new region's key is of
        # generation 1): they start while the centre's database is made.
        for region in REGIONS:
            start_region_worker(region, region_key(region.name, 1))
        private_services.start_postgres(SCRATCH, PG_PORT, "statuspage_regions")
        say("migrating the drill database")
        probes = set_up_site()
        assert all(
            key_of(r) == region_key(r.name, 1)
            for r in ProbeRegion.objects.exclude(name=settings.PROBE_HOME_REGION)
        )
        start("centre-worker", [*CELERY, "worker", "-Q", "probes", "-P", "solo", "-n", "centre@%h", *QUIET])
        start("beat", [*CELERY, "beat", "-s", str(SCRATCH / "beat-schedule")])
        first_tick = timezone.now().replace(microsecond=0) + dt.timedelta(seconds=4)
        Probe.objects.filter(pk__in=[p.pk for p in probes]).update(next_run_at=first_tick)
        say(f"three regions, probes every {INTERVAL} s from {first_tick:%H:%M:%S}")
        line = scenario(probes)
    finally:
        for process in reversed(started):
            stop(process)
        with contextlib.suppress(Exception):
            connection.close()
            private_services.pg_ctl(SCRATCH, PG_PORT, "stop")
        remove_network()
        if "goal=met" not in line:
            show_errors_in_logs(SCRATCH, say)
        shutil.rmtree(SCRATCH, ignore_errors=True)
        say(f"took {time.monotonic() - began:.0f} s")
    print(line, flush=True)
    return 0 if "goal=met" in line else 1


if __name__ == "__main__":
    sys.exit(main())
