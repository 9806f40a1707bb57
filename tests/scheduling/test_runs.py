"""A periodic job runs once per slot, whichever scheduler sent it and however often."""

import datetime as dt

import pytest
from django.utils import timezone

from incidents.models import Counter, ScheduledRun
from incidents.scheduling import runs
from incidents.tasks.database import prune_expired_counters
from incidents.tasks.scheduling import prune_scheduled_runs

pytestmark = pytest.mark.django_db


def expired_counter(key: str) -> Counter:
    return Counter.objects.create(key=key, count=1, window_ends_at=timezone.now() - dt.timedelta(minutes=1))


def sent(slot: int, node: str = "a", term: int = 1) -> dict:
    return {runs.SLOT_ARGUMENT: {"job": "prune-expired-counters", "slot": slot, "node": node, "term": term}}


def test_a_slot_sent_by_two_schedulers_runs_once():
    expired_counter("login:first")
    prune_expired_counters.apply(kwargs=sent(7, node="a", term=1))
    expired_counter("login:second")
    prune_expired_counters.apply(kwargs=sent(7, node="b", term=2))
    assert list(Counter.objects.values_list("key", flat=True)) == ["login:second"]
    assert list(ScheduledRun.objects.values_list("job", "slot", "node", "term")) == [
        ("prune-expired-counters", 7, "a", 1)
    ]


def test_the_next_slot_runs_again():
    prune_expired_counters.apply(kwargs=sent(7))
    expired_counter("login:second")
    prune_expired_counters.apply(kwargs=sent(8))
    assert not Counter.objects.exists()


def test_a_job_called_directly_runs_without_a_claim():
    expired_counter("login:first")
    prune_expired_counters.apply()
    assert not Counter.objects.exists()
    assert not ScheduledRun.objects.exists()


def test_claims_older_than_kept_are_pruned(settings):
    settings.SCHEDULED_RUNS_KEPT_HOURS = 24
    runs.claim(runs.Slot(job="notify-sweep", slot=1, node="a", term=1))
    runs.claim(runs.Slot(job="notify-sweep", slot=2, node="a", term=1))
    ScheduledRun.objects.filter(slot=1).update(started_at=timezone.now() - dt.timedelta(hours=25))
    prune_scheduled_runs.apply()
    assert list(ScheduledRun.objects.values_list("slot", flat=True)) == [2]
