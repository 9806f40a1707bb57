"""Who schedules, and what was scheduled: the scheduler's lease and one row per periodic job run.

Every node may run a scheduler; the one holding the lease sends the periodic jobs, the others
stand by. Each job sent carries its slot (the schedule's time slot), and a job runs only after
claiming the row of its slot, so a slot sent twice (by the old holder just before its lease
ended and by the new one just after) still runs once.
"""

from django.db import models


class SchedulerLease(models.Model):
    name = models.CharField(max_length=40, unique=True)
    # The node (NODE_NAME) and the very process holding it: a second process under the same node
    # name (a restart, a copy started by mistake) is another candidate and waits for the lease.
    holder = models.CharField(max_length=100, blank=True)
    candidate = models.CharField(max_length=100, blank=True)
    # +1 on every change of holder: jobs carry the term they were sent under.
    term = models.PositiveBigIntegerField(default=0)
    acquired_at = models.DateTimeField(null=True, blank=True)
    renewed_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name}: {self.holder or '-'} (term {self.term})"


class ScheduledRun(models.Model):
    """A periodic job's slot, claimed by the worker that runs it (the unique pair is the claim)."""

    job = models.CharField(max_length=120)
    slot = models.BigIntegerField()
    # The node whose scheduler sent it, and under which term of the lease.
    node = models.CharField(max_length=100)
    term = models.PositiveBigIntegerField(default=0)
    started_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["job", "slot"], name="scheduled_run_once")]
        # Serves the prune of old rows.
        indexes = [models.Index(fields=["started_at"])]

    def __str__(self) -> str:
        return f"{self.job} #{self.slot} on {self.node}"
