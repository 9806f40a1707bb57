"""Recording samples, keeping rollups current, and changing metric thresholds."""

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from incidents.metrics import rollups
from incidents.models import Metric, Outcome, Resolution, Rollup, Sample, Subject
from incidents.public.versions import content_changed, live_changed
from incidents.services.bulk import update_many
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


def _fold(rollup: Rollup, value: float | None) -> None:
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


def record_samples(entries: list[NewSample]) -> list[Sample]:
    """Stores measurements and folds them into the minute, hour and day rollups, in a few queries.

    Every value is validated before anything is written, so a bad one stores nothing. Rollup
    rows are created empty if missing, then locked in a fixed order (concurrent writers of the
    same bucket wait instead of losing counts) and folded in memory.
    """
    entries = [checked(entry) for entry in entries]
    if not entries:
        return []
    return _store(entries)


# No savepoint: a failure here rolls the caller's transaction back with it, and no caller goes on
# after one (bad values are refused before); a savepoint costs two round trips on every push.
@transaction.atomic(savepoint=False)
def _store(entries: list[NewSample]) -> list[Sample]:
    samples = Sample.objects.bulk_create(
        [Sample(metric=e.metric, at=e.at, value=e.value, outcome=e.outcome) for e in entries]
    )
    fold_into_rollups(entries)
    _advance_latest(entries)
    live_changed()
    return samples


def fold_into_rollups(entries: list[NewSample]) -> None:
    """Adds checked samples to the minute, hour and day rollups of their buckets (call inside a
    transaction)."""
    keys = {
        (e.metric.pk, resolution.value, bucket_start(e.at, resolution))
        for e in entries
        for resolution in Resolution
    }
    by_key = _locked_rollups(keys)
    missing = keys - by_key.keys()
    if missing:
        # Created empty, then locked like the others; a concurrent writer's row wins the race.
        Rollup.objects.bulk_create(
            [Rollup(metric_id=m, resolution=r, bucket_start=b) for m, r, b in missing], ignore_conflicts=True
        )
        by_key.update(_locked_rollups(missing))
    for entry in entries:
        for resolution in Resolution:
            _fold(
                by_key[(entry.metric.pk, resolution.value, bucket_start(entry.at, resolution))], entry.value
            )
    touched = [by_key[key] for key in keys]
    for rollup in touched:
        rollup.p95 = rollups.p95(rollup.sketch, minimum=rollup.minimum, maximum=rollup.maximum)
    update_many(Rollup, touched, ["count", "failures", "minimum", "maximum", "total", "p95", "sketch"])


def _locked_rollups(keys: set[tuple[int, str, dt.datetime]]) -> dict[tuple, Rollup]:
    locked = (
        Rollup.objects.select_for_update()
        .filter(metric_id__in={k[0] for k in keys}, bucket_start__in={k[2] for k in keys})
        .order_by("pk")
    )
    rows = {(r.metric_id, r.resolution, r.bucket_start): r for r in locked}
    return {key: row for key, row in rows.items() if key in keys}


def _advance_latest(entries: list[NewSample]) -> None:
    """Moves each metric's latest figure to its newest entry, unless a later one is stored."""
    newest: dict[int, NewSample] = {}
    for entry in entries:
        if entry.metric.pk not in newest or entry.at >= newest[entry.metric.pk].at:
            newest[entry.metric.pk] = entry
    written = update_many(
        Metric,
        [Metric(pk=pk, latest_value=e.value, latest_at=e.at) for pk, e in newest.items()],
        ["latest_value", "latest_at"],
        unless_later="latest_at",
    )
    for metric_id in written:
        metric = newest[metric_id].metric
        metric.latest_value, metric.latest_at = newest[metric_id].value, newest[metric_id].at


def record_sample(
    metric: Metric, *, value: float | None, at: dt.datetime | None = None, outcome: Outcome | str = Outcome.OK
) -> Sample:
    """Stores one measurement and folds it into the minute, hour and day rollups."""
    return record_samples([NewSample(metric, value, at or timezone.now(), Outcome(outcome))])[0]


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
