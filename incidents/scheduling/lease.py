"""The scheduler's lease, a database row taken with one conditional UPDATE.

A candidate takes the lease when it is free or expired, and renews it while holding it. Expiry
is judged by the database's clock alone, so the nodes' clocks never have to agree. The holder
keeps its own deadline, counted from the moment it sent its last successful renewal: that moment
is no later than the database's, so the holder stops before anyone may take over.
"""

import datetime as dt
import logging
import os
import socket
import time
import uuid
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Case, F, Q, Value, When
from django.db.models.functions import Now

from incidents.models import SchedulerLease

logger = logging.getLogger(__name__)

SCHEDULER = "scheduler"


def new_candidate(node: str) -> str:
    """A name for this process among the candidates: its node, its process and a random part."""
    return f"{node}/{socket.gethostname()}:{os.getpid()}/{uuid.uuid4().hex[:8]}"


@dataclass(frozen=True)
class Holding:
    term: int
    # time.monotonic() past which this candidate must stop acting as the holder.
    deadline: float


def take_or_renew(*, node: str, candidate: str, lease_seconds: float) -> Holding | None:
    """Takes the lease if free or expired, renews it if ours; None when another candidate holds it."""
    sent_at = time.monotonic()
    SchedulerLease.objects.get_or_create(name=SCHEDULER)
    ours = Q(candidate=candidate)
    with transaction.atomic():
        taken = (
            SchedulerLease.objects.filter(name=SCHEDULER)
            .filter(ours | Q(expires_at__isnull=True) | Q(expires_at__lt=Now()))
            .update(
                term=Case(When(ours, then=F("term")), default=F("term") + 1),
                acquired_at=Case(When(ours, then=F("acquired_at")), default=Now()),
                holder=Value(node),
                candidate=Value(candidate),
                renewed_at=Now(),
                expires_at=Now() + Value(dt.timedelta(seconds=lease_seconds)),
            )
        )
        if not taken:
            return None
        term = SchedulerLease.objects.values_list("term", flat=True).get(name=SCHEDULER)
    return Holding(term=term, deadline=sent_at + lease_seconds)


def give_up(*, candidate: str) -> None:
    """Ends our lease at once (a clean stop), so a standby need not wait for it to expire."""
    SchedulerLease.objects.filter(name=SCHEDULER, candidate=candidate).update(expires_at=Now())


def current() -> SchedulerLease | None:
    return SchedulerLease.objects.filter(name=SCHEDULER).first()
