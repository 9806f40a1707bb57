"""The static snapshot tasks: each node keeps its own, following the site's changes and periodically."""

import logging

from celery import shared_task

from incidents.public import snapshot

logger = logging.getLogger(__name__)


@shared_task(name="incidents.snapshot.export", ignore_result=True)
def export_snapshot() -> None:
    try:
        snapshot.export()
    except snapshot.SnapshotFailed as failed:
        # Not retried: the next look or the periodic export tries again.
        logger.error("snapshot: %s", failed)


@shared_task(name="incidents.snapshot.follow", ignore_result=True)
def follow_site() -> None:
    """Renders this node's snapshot again once the site changed since the last one."""
    if snapshot.is_behind():
        export_snapshot()
