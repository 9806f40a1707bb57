"""Care of the scheduler's own rows."""

import datetime as dt

from celery import shared_task
from django.conf import settings

from incidents.scheduling import runs


@shared_task(name="incidents.scheduling.prune")
def prune_scheduled_runs() -> int:
    return runs.prune(older_than=dt.timedelta(hours=settings.SCHEDULED_RUNS_KEPT_HOURS))
