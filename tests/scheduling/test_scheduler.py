"""The leased scheduler: only the holder sends the cluster's jobs, every node sends its own, slots
follow the wall clock so two schedulers name a run alike, and a holder that cannot renew stops
before its lease ends."""

import datetime as dt

import pytest
from django.db import DatabaseError
from django.utils import timezone

from incidents.models import SchedulerLease
from incidents.scheduling import lease, scheduler
from incidents.scheduling.runs import SLOT_ARGUMENT
from statuspage.celery import app

pytestmark = pytest.mark.django_db

SCHEDULE = {
    "sweep": {"task": "incidents.scheduling.prune", "schedule": 10.0},
    "own-snapshot": {"task": "incidents.snapshot.follow", "schedule": 10.0},
}


class Clock:
    def __init__(self):
        self.now = 1_000_000.0
        self.mono = 500.0

    def time(self):
        return self.now

    def monotonic(self):
        return self.mono

    def advance(self, seconds: float):
        self.now += seconds
        self.mono += seconds


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(scheduler, "time", clock)
    monkeypatch.setattr(lease, "time", clock)
    return clock


@pytest.fixture
def make_scheduler(settings, monkeypatch, clock):
    monkeypatch.setitem(app.conf, "beat_schedule", SCHEDULE)
    settings.SCHEDULER_NODE_JOBS = ("own-snapshot",)
    settings.SCHEDULER_LEASE_SECONDS = 15
    settings.SCHEDULER_RENEW_SECONDS = 5
    # The process's own connection housekeeping would close the test's transaction.
    monkeypatch.setattr(scheduler, "close_old_connections", lambda: None)

    def make(node: str):
        settings.NODE_NAME = node
        candidate = scheduler.LeasedScheduler(app)
        candidate.sent = []
        candidate.send_task = lambda task, args, kwargs, **options: candidate.sent.append(
            (kwargs[SLOT_ARGUMENT]["job"], kwargs[SLOT_ARGUMENT]["slot"], options.get("queue"))
        )
        return candidate

    return make


def tick_after(candidate, clock, seconds: float):
    clock.advance(seconds)
    candidate.tick()
    sent, candidate.sent = candidate.sent, []
    return sorted(sent)


def test_only_the_holder_sends_the_clusters_jobs_and_each_node_sends_its_own(make_scheduler, clock):
    a, b = make_scheduler("a"), make_scheduler("b")
    assert tick_after(a, clock, 0) == [("own-snapshot@a", 100_000, "node.a"), ("sweep", 100_000, None)]
    assert tick_after(b, clock, 0) == [("own-snapshot@b", 100_000, "node.b")]
    assert tick_after(a, clock, 10) == [("own-snapshot@a", 100_001, "node.a"), ("sweep", 100_001, None)]


def test_nothing_is_sent_twice_within_a_slot(make_scheduler, clock):
    a = make_scheduler("a")
    tick_after(a, clock, 0)
    assert tick_after(a, clock, 4) == []


def test_a_standby_takes_over_an_expired_lease_and_sends_the_current_slot_at_once(make_scheduler, clock):
    a, b = make_scheduler("a"), make_scheduler("b")
    tick_after(a, clock, 0)
    tick_after(b, clock, 0)
    SchedulerLease.objects.update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    assert ("sweep", 100_000, None) in tick_after(b, clock, 5)
    assert lease.current().holder == "b"


def test_a_holder_cut_off_from_the_database_stops_sending_before_its_lease_ends(
    make_scheduler, clock, monkeypatch
):
    a = make_scheduler("a")
    tick_after(a, clock, 0)

    def unreachable(**_kwargs):
        raise DatabaseError("server closed the connection")

    monkeypatch.setattr(lease, "take_or_renew", unreachable)
    assert [job for job, _slot, _queue in tick_after(a, clock, 10)] == ["own-snapshot@a", "sweep"]
    # 20 s after the last renewal: its 15 s lease may be another node's by now.
    assert tick_after(a, clock, 10) == [("own-snapshot@a", 100_002, "node.a")]


def test_the_wait_until_the_next_tick_is_the_nearest_slot_or_lease_check(make_scheduler, clock):
    a = make_scheduler("a")
    clock.advance(3)
    assert a.tick() == pytest.approx(5)
    clock.advance(5)
    assert a.tick() == pytest.approx(2)


def test_a_clean_stop_gives_the_lease_up(make_scheduler, clock):
    a, b = make_scheduler("a"), make_scheduler("b")
    tick_after(a, clock, 0)
    a.close()
    assert ("sweep", 100_000, None) in tick_after(b, clock, 5)
