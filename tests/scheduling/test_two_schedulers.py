"""Two scheduler processes against one database, as two nodes run them: every periodic job runs
once per slot, the holder's death costs at most the slots of two lease periods, and the standby
then carries on alone. The jobs' claims (ScheduledRun) are what the test reads."""

import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest
import redis
from django.conf import settings

from incidents.models import ScheduledRun, SchedulerLease
from tests.processes import database_url

pytestmark = [pytest.mark.redis, pytest.mark.system, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parent.parent.parent
LEASE = 1.5
PERIODS = 20
# Jobs sent every second or two, so the test sees many slots of each.
EVERY_SECOND = ("probes-dispatch", "probes-watchdog")
EVERY_TWO_SECONDS = ("notify-sweep", "editor-advance-maintenance")


class Nodes:
    def __init__(self, tmp_path: Path):
        self.tmp_path = tmp_path
        self.processes: dict[str, subprocess.Popen] = {}
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "REDIS_URL": settings.REDIS_URL,
            "SECRET_KEY": settings.SECRET_KEY,
            "STATUSPAGE_VAR_DIR": str(tmp_path),
            "SCHEDULER_LEASE_SECONDS": str(LEASE),
            "SCHEDULER_RENEW_SECONDS": "0.5",
            "PROBE_DISPATCH_EVERY": "1",
            "NOTIFY_SWEEP_SECONDS": "2",
            "MAINTENANCE_SWEEP_SECONDS": "2",
            "STATUS_SNAPSHOT_DEBOUNCE_SECONDS": "2",
            "LOG_LEVEL": "WARNING",
        }

    def start(self, name: str, args: list[str], **env: str) -> None:
        log = open(self.tmp_path / f"{name}.log", "ab")
        self.processes[name] = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "statuspage", *args],
            cwd=ROOT,
            env={**self.env, **env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def start_scheduler(self, node: str) -> None:
        self.start(f"beat-{node}", ["beat", "-l", "warning"], NODE_NAME=node)

    def kill(self, name: str) -> None:
        process = self.processes.pop(name)
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)

    def stop_all(self) -> None:
        for name in list(self.processes):
            self.kill(name)

    def logs(self) -> str:
        return "\n".join(
            f"--- {p.name}\n{p.read_text(errors='replace')[-3000:]}" for p in self.tmp_path.glob("*.log")
        )


@pytest.fixture
def nodes(tmp_path):
    redis.Redis.from_url(settings.REDIS_URL).flushdb()
    nodes = Nodes(tmp_path)
    yield nodes
    nodes.stop_all()


def wait_for(condition, seconds: float, what: str, nodes: Nodes):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if value := condition():
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}\n{nodes.logs()}")


def holder() -> str | None:
    lease = SchedulerLease.objects.filter(name="scheduler").first()
    return lease.holder if lease else None


def slots_by_job() -> dict[str, list[tuple[int, str, int]]]:
    found = defaultdict(list)
    for job, slot, node, term in ScheduledRun.objects.order_by("slot").values_list(
        "job", "slot", "node", "term"
    ):
        found[job].append((slot, node, term))
    return found


def test_two_schedulers_run_every_job_once_per_slot_and_the_standby_takes_over_from_a_killed_holder(nodes):
    queues = "default,probes,notify,node.a,node.b"
    nodes.start("worker", ["worker", "-Q", queues, "-c", "2", "--without-gossip", "--without-mingle"])
    nodes.start_scheduler("a")
    wait_for(lambda: holder() == "a", 30, "node a to take the lease", nodes)
    nodes.start_scheduler("b")
    wait_for(lambda: ScheduledRun.objects.filter(node="b").exists(), 30, "node b's own jobs", nodes)

    time.sleep(LEASE * PERIODS / 2)
    nodes.kill("beat-a")
    killed_at = time.time()
    wait_for(lambda: holder() == "b", LEASE * 4, "node b to take the lease over", nodes)
    taken_after = time.time() - killed_at
    time.sleep(LEASE * PERIODS / 2)

    runs = slots_by_job()
    for job in EVERY_SECOND + EVERY_TWO_SECONDS:
        interval = 1 if job in EVERY_SECOND else 2
        slots = [slot for slot, _node, _term in runs[job]]
        nodes_in_order = [node for _slot, node, _term in runs[job]]
        # One holder at a time: node a's runs, then node b's, never mixed.
        assert nodes_in_order == sorted(nodes_in_order), (job, runs[job])
        assert {term for _slot, node, term in runs[job] if node == "a"} == {1}
        assert {term for _slot, node, term in runs[job] if node == "b"} == {2}
        # Slots missed only while nobody held the lease: at most two lease periods' worth.
        missed = (slots[-1] - slots[0] + 1) - len(slots)
        assert missed <= 2 * LEASE / interval + 1, (job, missed, slots)
        assert len(slots) >= LEASE * PERIODS / interval - 2 * LEASE / interval - 3, (job, slots)
    # Each node's own jobs were sent by its own scheduler, to its own queue, lease or not.
    assert runs["snapshot-follow@a"] and runs["snapshot-follow@b"]
    assert taken_after <= 2 * LEASE + 1, taken_after
