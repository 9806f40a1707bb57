"""The static snapshot task: after publishes (debounced, incidents.public.snapshot_schedule) and periodically."""

import logging

from celery import shared_task

from incidents.public import snapshot, snapshot_schedule

logger = logging.getLogger(__name__)


@shared_task(name="incidents.snapshot.export", ignore_result=True)
def export_snapshot() -> None:
    # Cleared before rendering, so a publish during the render schedules the next one.
    snapshot_schedule.clear_pending()
    try:
        snapshot.export()
    except snapshot.SnapshotFailed as failed:
        # Not retried: the next publish or the periodic export tries again.
        logger.error("snapshot: %s", failed)
