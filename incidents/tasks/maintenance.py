"""Periodic editor chores: maintenance windows that open and close, and overdue reminders."""

from celery import shared_task

from incidents.lifecycle.maintenance import advance_maintenance
from incidents.services.reminders import send_overdue_reminders


@shared_task(name="incidents.maintenance.advance")
def advance_maintenance_windows() -> tuple[int, int]:
    """Starts and completes scheduled maintenance whose time has come (idempotent)."""
    return advance_maintenance()


@shared_task(name="incidents.notify.overdue_reminders")
def send_overdue_action_item_reminders() -> int:
    """Sends each owner of overdue action items at most one email a day."""
    return send_overdue_reminders()
