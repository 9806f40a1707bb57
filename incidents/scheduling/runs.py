"""Claims of scheduled job slots: the first claim of a (job, slot) runs it, any other is skipped."""

import datetime as dt
import logging
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone

from incidents.models import ScheduledRun

logger = logging.getLogger(__name__)

# The keyword a scheduled message carries its slot in; taken off before the task runs.
SLOT_ARGUMENT = "_scheduled"


@dataclass(frozen=True)
class Slot:
    job: str
    slot: int
    node: str
    term: int

    def as_argument(self) -> dict:
        return {"job": self.job, "slot": self.slot, "node": self.node, "term": self.term}

    @classmethod
    def from_argument(cls, value: dict) -> "Slot":
        return cls(
            job=str(value["job"]), slot=int(value["slot"]), node=str(value["node"]), term=int(value["term"])
        )


def claim(slot: Slot) -> bool:
    """True when this is the slot's first run; False when it ran (or is running) already."""
    try:
        with transaction.atomic():
            ScheduledRun.objects.create(
                job=slot.job, slot=slot.slot, node=slot.node, term=slot.term, started_at=timezone.now()
            )
    except IntegrityError:
        logger.info("scheduler: %s slot %s ran already, skipped", slot.job, slot.slot)
        return False
    return True


def prune(*, older_than: dt.timedelta) -> int:
    """Deletes claims older than any slot a scheduler could still send."""
    deleted, _ = ScheduledRun.objects.filter(started_at__lt=timezone.now() - older_than).delete()
    return deleted
