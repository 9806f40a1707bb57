"""Recording samples, keeping rollups current, and changing metric thresholds."""

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from incidents.metrics import rollups
from incidents.models import Metric, Outcome, Resolution, Rollup, Sample, Subject
from incidents.public.versions import content_changed, live_changed
from incidents.services.bulk import insert_rows, update_rows
from incidents.validation.instants import check_happened

from .audit import record_changes


def bucket_start(at: dt.datetime, resolution: Resolution) -> dt.datetime:
    at = at.astimezone(dt.UTC)
    if resolution == Resolution.MINUTE:
        return at.replace(second=0, microsecond=0)
    if resolution == Resolution.HOUR:
        return at.replace(minute=0, second=0, microsecond=0)
    return at.replace(hour=0, minute=0, second=0, microsecond=0)


@dataclass(frozen=True)
class NewSample:
    metric: Metric
    value: float | None
    at: dt.datetime
    outcome: Outcome = Outcome.OK


@dataclass(slots=True)
class _Bucket:
    """A rollup's figures as read (locked) for folding new samples into them."""

    pk: int
    count: int
    failures: int
    minimum: float | None
    maximum: float | None
    total: float
    sketch: dict
    p95: float | None = None


FIGURES = ("count", "failures", "minimum", "maximum", "total", "sketch")


def _fold(rollup: _Bucket, value: float | None) -> None:
    rollup.count += 1
    if value is None:
        rollup.failures += 1
        return
    rollup.minimum = value if rollup.minimum is None else min(rollup.minimum, value)
    rollup.maximum = value if rollup.maximum is None else max(rollup.maximum, value)
    rollup.total += value
    rollups.add(rollup.sketch, value)


def checked(entry: NewSample) -> NewSample:
    try:
        check_happened(entry.at)
    except ValidationError as invalid:
        raise ValidationError({"at": invalid.messages}) from None
    outcome = Outcome(entry.outcome)
    if outcome != Outcome.OK:
        return NewSample(entry.metric, None, entry.at, outcome)
    if entry.value is None:
        raise ValueError("a successful sample needs a value")
    entry.metric.validate_value(entry.value)
    return NewSample(entry.metric, float(entry.value), entry.at, outcome)


def record_samples(entries: list[NewSample]) -> int:
    """Stores measurements and folds them into the minute, hour and day rollups, in a few queries;
    returns how many were stored.

    Every value is validated before anything is written, so a bad one stores nothing. Rollup
    rows are created empty if missing, then locked in a fixed order (concurrent writers of the
    same bucket wait instead of losing counts) and folded in memory.
    """
    entries = [checked(entry) for entry in entries]
    if not entries:
        return 0
    _store(entries)
    return len(entries)


# No savepoint: a failure here rolls the caller's transaction back with it, and no caller goes on
# after one (bad values are refused before); a savepoint costs two round trips on every push.
@transaction.atomic(savepoint=False)
def _store(entries: list[NewSample]) -> None:
    insert_rows(
        Sample,
        ("metric", "at", "value", "outcome"),
        [(e.metric.pk, e.at, e.value, e.outcome) for e in entries],
    )
    fold_into_rollups(entries)
    _advance_latest(entries)
    live_changed()


def _bucket_keys(entry: NewSample) -> tuple[tuple[int, str, dt.datetime], ...]:
    """The (metric, resolution, bucket start) of the minute, hour and day the entry falls in."""
    minute = entry.at.astimezone(dt.UTC).replace(second=0, microsecond=0)
    hour = minute.replace(minute=0)
    metric_id = entry.metric.pk
    return (
        (metric_id, Resolution.MINUTE.value, minute),
        (metric_id, Resolution.HOUR.value, hour),
        (metric_id, Resolution.DAY.value, hour.replace(hour=0)),
    )


def fold_into_rollups(entries: list[NewSample]) -> None:
    """Adds checked samples to the minute, hour and day rollups of their buckets (call inside a
    transaction)."""
    values: dict[tuple[int, str, dt.datetime], list[float | None]] = defaultdict(list)
    for entry in entries:
        for key in _bucket_keys(entry):
            values[key].append(entry.value)
    by_key = _locked_rollups(values.keys())
    missing = values.keys() - by_key.keys()
    if missing:
        # Created empty, then locked like the others; a concurrent writer's row wins the race.
        insert_rows(Rollup, ("metric", "resolution", "bucket_start"), sorted(missing), ignore_conflicts=True)
        by_key.update(_locked_rollups(missing))
    for key, bucket_values in values.items():
        rollup = by_key[key]
        for value in bucket_values:
            _fold(rollup, value)
        rollup.p95 = rollups.p95(rollup.sketch, minimum=rollup.minimum, maximum=rollup.maximum)
    update_rows(
        Rollup,
        (*FIGURES, "p95"),
        [
            (r.pk, r.count, r.failures, r.minimum, r.maximum, r.total, r.sketch, r.p95)
            for r in by_key.values()
        ],
    )


def _locked_rollups(keys) -> dict[tuple, _Bucket]:
    """The rollups of `keys` that exist, locked in primary key order."""
    starts: dict[str, set[dt.datetime]] = defaultdict(set)
    for _metric_id, resolution, start in keys:
        starts[resolution].add(start)
    buckets = Q()
    for resolution, bucket_starts in starts.items():
        buckets |= Q(resolution=resolution, bucket_start__in=bucket_starts)
    locked = (
        Rollup.objects.select_for_update()
        .filter(buckets, metric_id__in={key[0] for key in keys})
        .order_by("pk")
        .values_list("metric_id", "resolution", "bucket_start", "pk", *FIGURES)
    )
    return {row[:3]: _Bucket(*row[3:]) for row in locked if row[:3] in keys}


def _advance_latest(entries: list[NewSample]) -> None:
    """Moves each metric's latest figure to its newest entry, unless a later one is stored."""
    newest: dict[int, NewSample] = {}
    for entry in entries:
        if entry.metric.pk not in newest or entry.at >= newest[entry.metric.pk].at:
            newest[entry.metric.pk] = entry
    written = update_rows(
        Metric,
        ("latest_value", "latest_at"),
        [(pk, e.value, e.at) for pk, e in newest.items()],
        unless_later="latest_at",
    )
    for metric_id in written:
        metric = newest[metric_id].metric
        metric.latest_value, metric.latest_at = newest[metric_id].value, newest[metric_id].at


def record_sample(
    metric: Metric, *, value: float | None, at: dt.datetime | None = None, outcome: Outcome | str = Outcome.OK
) -> None:
    """Stores one measurement and folds it into the minute, hour and day rollups."""
    record_samples([NewSample(metric, value, at or timezone.now(), Outcome(outcome))])


THRESHOLDS = ("degraded_threshold", "partial_outage_threshold", "major_outage_threshold")
THRESHOLD_FIELDS = (*THRESHOLDS, "higher_is_worse", "window")
METRIC_FIELDS = ("slug", "name", "kind", "unit", "precision", "aggregation", "expected_interval", "position")


@transaction.atomic
def save_metric(metric: Metric, *, actor: AbstractBaseUser | None) -> Metric:
    """Creates or edits a metric; threshold changes are recorded as their own audit events."""
    metric.full_clean()
    creating = metric.pk is None
    stored = None if creating else Metric.objects.get(pk=metric.pk)
    metric.updated_at = timezone.now()
    metric.save()
    content_changed()
    for fields, subject, action in (
        (METRIC_FIELDS, Subject.METRIC, "metric"),
        (THRESHOLD_FIELDS, Subject.THRESHOLD, "thresholds"),
    ):
        before = {} if stored is None else {f: getattr(stored, f) for f in fields}
        record_changes(
            metric,
            actor=actor,
            action=f"{action}.{'created' if creating else 'changed'}",
            subject_type=subject,
            before=before,
            after={f: getattr(metric, f) for f in fields},
        )
    return metric
