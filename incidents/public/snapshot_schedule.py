"""Asks for a snapshot after a publish, at most one pending at a time, so a burst of updates
renders once. The task is sent by name so this module, called from incidents.public.versions,
does not import the tasks; a broker or cache that is down never fails the write.
"""

import logging

from celery import current_app
from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

PENDING_KEY = "snapshot:pending"
TASK_NAME = "incidents.snapshot.export"


def request_snapshot() -> None:
    delay = settings.STATUS_SNAPSHOT_DEBOUNCE_SECONDS
    try:
        if not cache.add(PENDING_KEY, 1, timeout=delay + 300):
            return
        current_app.signature(TASK_NAME, countdown=delay).apply_async()
    except Exception:  # the periodic snapshot catches up; a publish must not fail for this
        logger.warning("snapshot not scheduled (cache or broker unavailable)", exc_info=True)
        try:
            cache.delete(PENDING_KEY)
        except Exception:
            logger.debug("cache unavailable", exc_info=True)


def clear_pending() -> None:
    cache.delete(PENDING_KEY)
