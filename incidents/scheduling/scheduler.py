"""Celery beat's scheduler for several nodes: `celery -A statuspage beat` on every node.

The candidate holding the lease (incidents.scheduling.lease) sends the cluster's periodic jobs;
the others stand by and check the lease every SCHEDULER_RENEW_SECONDS. Jobs that belong to each
node (SCHEDULER_NODE_JOBS: its own static snapshot) are sent by every node's scheduler to its
own queue, `node.<NODE_NAME>`, lease or not.

Slots follow the wall clock (a job every 60 s runs in slot floor(epoch / 60)), not the time a
scheduler started, so two schedulers name the same run alike. Each message carries its slot
and the worker claims it before running (incidents.scheduling.runs): a slot sent by the old
holder just before its lease ended and by the new one just after it runs once. A scheduler that
takes over sends each job's current slot at once, so a failover misses at most the slots that
fell while nobody held the lease.
"""

import logging
import math
import time
from typing import Any

from celery.beat import ScheduleEntry, Scheduler
from django.conf import settings
from django.db import DatabaseError, close_old_connections, connections

from incidents.scheduling import lease
from incidents.scheduling.runs import SLOT_ARGUMENT, Slot

logger = logging.getLogger(__name__)


def node_queue(node: str) -> str:
    return f"node.{node}"


class LeasedScheduler(Scheduler):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.node = settings.NODE_NAME
        self.candidate = lease.new_candidate(self.node)
        self.holding: lease.Holding | None = None
        self.next_lease_check = 0.0
        self.last_slots: dict[str, int] = {}
        super().__init__(*args, **kwargs)

    def setup_schedule(self) -> None:
        # Celery's default entries clean a result backend, which this project does not keep.
        self.merge_inplace(self.app.conf.beat_schedule)

    def tick(self, *_args: Any, **_kwargs: Any) -> float:
        if time.monotonic() >= self.next_lease_check:
            self.check_lease()
            self.next_lease_check = time.monotonic() + settings.SCHEDULER_RENEW_SECONDS
        holds = self.holds_lease()
        now = time.time()
        waits = [self.next_lease_check - time.monotonic(), self.max_interval]
        for entry in self.schedule.values():
            per_node = entry.name in settings.SCHEDULER_NODE_JOBS
            if not (per_node or holds):
                continue
            interval = entry.schedule.run_every.total_seconds()
            slot = math.floor(now / interval)
            if slot > self.last_slots.get(entry.name, slot - 1):
                self.send(entry, slot=slot, per_node=per_node)
            waits.append((slot + 1) * interval - now)
        return max(0.0, min(waits))

    def holds_lease(self) -> bool:
        return self.holding is not None and time.monotonic() < self.holding.deadline

    def check_lease(self) -> None:
        held_before = self.holds_lease()
        close_old_connections()
        try:
            holding = lease.take_or_renew(
                node=self.node, candidate=self.candidate, lease_seconds=settings.SCHEDULER_LEASE_SECONDS
            )
        except DatabaseError:
            # Held until its deadline passes; a connection broken by the failure is opened anew.
            logger.warning("scheduler: the lease could not be checked", exc_info=True)
            connections.close_all()
            return
        if holding is not None and not held_before:
            logger.warning("scheduler: node %s holds the lease (term %s)", self.node, holding.term)
        elif holding is None and held_before:
            logger.warning("scheduler: node %s lost the lease to another node", self.node)
        self.holding = holding

    def send(self, entry: ScheduleEntry, *, slot: int, per_node: bool) -> None:
        self.last_slots[entry.name] = slot
        job = f"{entry.name}@{self.node}" if per_node else entry.name
        term = self.holding.term if self.holding else 0
        options = dict(entry.options)
        if per_node:
            options["queue"] = node_queue(self.node)
        kwargs = {
            **entry.kwargs,
            SLOT_ARGUMENT: Slot(job=job, slot=slot, node=self.node, term=term).as_argument(),
        }
        try:
            self.send_task(entry.task, entry.args, kwargs, **options)
        except Exception:  # the broker: this slot is missed, the next one is sent as usual
            logger.warning("scheduler: %s (slot %s) could not be sent", job, slot, exc_info=True)

    def close(self) -> None:
        if self.holds_lease():
            try:
                lease.give_up(candidate=self.candidate)
            except DatabaseError:
                logger.warning("scheduler: the lease could not be given up; it expires", exc_info=True)
        super().close()
