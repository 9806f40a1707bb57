"""The scheduler's lease: one holder at a time, taken over once it expires, never while it runs."""

import datetime as dt
import time

import pytest
from django.utils import timezone

from incidents.models import SchedulerLease
from incidents.scheduling import lease

pytestmark = pytest.mark.django_db


def take(candidate: str, node: str = "a", seconds: float = 15):
    return lease.take_or_renew(node=node, candidate=candidate, lease_seconds=seconds)


def expire_now():
    SchedulerLease.objects.update(expires_at=timezone.now() - dt.timedelta(seconds=1))


def test_the_first_candidate_takes_the_lease_and_a_second_stands_by():
    first = take("a/1")
    assert first is not None and first.term == 1
    assert take("b/1", node="b") is None
    row = lease.current()
    assert (row.holder, row.candidate, row.term) == ("a", "a/1", 1)


def test_the_holder_renews_without_a_new_term_and_pushes_the_expiry_on():
    take("a/1", seconds=15)
    before = lease.current().expires_at
    renewed = take("a/1", seconds=60)
    assert renewed is not None and renewed.term == 1
    assert lease.current().expires_at > before + dt.timedelta(seconds=40)


def test_a_standby_takes_over_an_expired_lease_under_the_next_term_and_the_old_holder_cannot_renew():
    take("a/1")
    expire_now()
    taken = take("b/1", node="b")
    assert taken is not None and taken.term == 2
    assert take("a/1") is None
    row = lease.current()
    assert (row.holder, row.term) == ("b", 2)


def test_a_second_process_under_the_same_node_name_waits_like_any_other_candidate():
    take("a/1")
    assert take("a/2") is None


def test_the_holders_deadline_ends_no_later_than_the_lease_counted_from_before_the_renewal():
    started = time.monotonic()
    holding = take("a/1", seconds=15)
    assert started < holding.deadline <= time.monotonic() + 15


def test_giving_the_lease_up_lets_a_standby_take_it_at_once():
    take("a/1")
    lease.give_up(candidate="a/1")
    assert take("b/1", node="b") is not None


def test_giving_up_a_lease_another_candidate_holds_changes_nothing():
    take("b/1", node="b")
    lease.give_up(candidate="a/1")
    assert take("a/1") is None
