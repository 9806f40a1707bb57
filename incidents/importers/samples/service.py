"""Importing a metric's history: samples of a past window, sent in bulk.

Unlike a push (which reports what is measured now, at most a day old), an import may reach back
to 1970. Imported samples are marked `imported`, folded into the minute, hour and day rollups of
their own buckets, and kept by the retention pruning, so re-importing the same window finds them
and counts nothing twice: a sample at an instant the metric already has is skipped.
"""

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from incidents.models import Metric, Outcome, Sample, Subject
from incidents.public.versions import content_changed, live_changed
from incidents.services.audit import record_event
from incidents.services.metrics import NewSample, checked, fold_into_rollups

MAX_IMPORTED_SAMPLES = 10_000


@dataclass(frozen=True)
class ImportResult:
    imported: int
    skipped: int  # already stored at the same instant


def _present_instants(metric: Metric, entries: list[NewSample]) -> set[dt.datetime]:
    first, last = min(e.at for e in entries), max(e.at for e in entries)
    return set(Sample.objects.filter(metric=metric, at__gte=first, at__lte=last).values_list("at", flat=True))


@transaction.atomic
def import_samples(
    metric: Metric, values: list[tuple[dt.datetime, float]], *, actor: AbstractBaseUser | None
) -> ImportResult:
    """Stores (time, value) pairs of the past as imported samples, all or none, in one audit event.

    The metric row is locked, so two imports of the same window cannot both miss each other.
    """
    metric = Metric.objects.select_for_update().get(pk=metric.pk)
    entries = [checked(NewSample(metric, value, at, Outcome.OK)) for at, value in values]
    if not entries:
        return ImportResult(0, 0)
    present = _present_instants(metric, entries)
    fresh = [e for e in entries if e.at not in present]
    Sample.objects.bulk_create(
        [Sample(metric=metric, at=e.at, value=e.value, outcome=e.outcome, imported=True) for e in fresh]
    )
    if fresh:
        fold_into_rollups(fresh)
    result = ImportResult(imported=len(fresh), skipped=len(entries) - len(fresh))
    record_event(
        actor=actor,
        action="samples.imported",
        subject_type=Subject.METRIC,
        subject_id=metric.pk,
        subject_label=str(metric),
        after={
            "summary": f"imported {result.imported:,} samples for {metric}",
            "imported": result.imported,
            "skipped": result.skipped,
            "from": min(e.at for e in entries).isoformat(),
            "until": max(e.at for e in entries).isoformat(),
        },
    )
    # Incident pages chart past windows and are cached by content version, not the live one.
    content_changed()
    live_changed()
    return result
