"""Periodic care of the database itself."""

from celery import shared_task

from incidents.planner_statistics import refresh_statistics
from incidents.security import counters


@shared_task(name="incidents.database.refresh_statistics")
def refresh_planner_statistics() -> None:
    """Keeps SQLite's query planner statistics current as the history grows."""
    refresh_statistics()


@shared_task(name="incidents.database.prune_counters")
def prune_expired_counters() -> int:
    """Deletes login and rate-limit counters whose window has ended (kept in the database without
    Redis, or while it cannot be reached)."""
    return counters.prune_expired()
