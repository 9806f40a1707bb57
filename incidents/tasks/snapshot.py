"""The static snapshot task: after publishes (debounced, incidents.snapshot_schedule) and periodically."""

from celery import shared_task

from incidents import snapshot, snapshot_schedule


@shared_task(name="incidents.snapshot.export", ignore_result=True)
def export_snapshot() -> None:
    # Cleared before rendering, so a publish during the render schedules the next one.
    snapshot_schedule.clear_pending()
    snapshot.export()
