"""Recording samples, keeping rollups current, and changing metric thresholds."""

import datetime as dt

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from incidents import page_cache, rollups
from incidents.models import Metric, Outcome, Resolution, Rollup, Sample, Subject

from .audit import changed_fields, record_event


def bucket_start(at: dt.datetime, resolution: Resolution) -> dt.datetime:
    at = at.astimezone(dt.UTC)
    if resolution == Resolution.MINUTE:
        return at.replace(second=0, microsecond=0)
    if resolution == Resolution.HOUR:
        return at.replace(minute=0, second=0, microsecond=0)
    return at.replace(hour=0, minute=0, second=0, microsecond=0)


def _fold_into_rollup(metric: Metric, resolution: Resolution, at: dt.datetime, value: float | None) -> None:
    rollup, _created = Rollup.objects.select_for_update().get_or_create(
        metric=metric, resolution=resolution, bucket_start=bucket_start(at, resolution)
    )
    rollup.count += 1
    if value is None:
        rollup.failures += 1
    else:
        rollup.minimum = value if rollup.minimum is None else min(rollup.minimum, value)
        rollup.maximum = value if rollup.maximum is None else max(rollup.maximum, value)
        rollup.total += value
        rollups.add(rollup.sketch, value)
        rollup.p95 = rollups.quantile(rollup.sketch, 0.95)
    rollup.save()


@transaction.atomic
def record_sample(
    metric: Metric, *, value: float | None, at: dt.datetime | None = None, outcome: Outcome | str = Outcome.OK
) -> Sample:
    """Stores one measurement and folds it into the minute, hour and day rollups."""
    outcome = Outcome(outcome)
    at = at or timezone.now()
    if outcome == Outcome.OK:
        if value is None:
            raise ValueError("a successful sample needs a value")
        metric.validate_value(value)
    else:
        value = None
    sample = Sample.objects.create(metric=metric, at=at, value=value, outcome=outcome)
    for resolution in Resolution:
        _fold_into_rollup(metric, resolution, at, value)
    page_cache.metrics_changed()
    if metric.latest_at is None or at >= metric.latest_at:
        Metric.objects.filter(pk=metric.pk).update(latest_value=value, latest_at=at)
        metric.latest_value, metric.latest_at = value, at
    return sample


THRESHOLD_FIELDS = (
    "degraded_threshold",
    "partial_outage_threshold",
    "major_outage_threshold",
    "higher_is_worse",
    "window",
)
METRIC_FIELDS = ("slug", "name", "kind", "unit", "precision", "aggregation", "expected_interval", "position")


@transaction.atomic
def save_metric(metric: Metric, *, actor: AbstractBaseUser | None) -> Metric:
    """Creates or edits a metric; threshold changes are recorded as their own audit events."""
    metric.full_clean()
    creating = metric.pk is None
    stored = None if creating else Metric.objects.get(pk=metric.pk)
    metric.updated_at = timezone.now()
    metric.save()
    for fields, subject, action in (
        (METRIC_FIELDS, Subject.METRIC, "metric"),
        (THRESHOLD_FIELDS, Subject.THRESHOLD, "thresholds"),
    ):
        before = {} if stored is None else {f: getattr(stored, f) for f in fields}
        old, new = changed_fields(before, {f: getattr(metric, f) for f in fields})
        if old or new:
            record_event(
                actor=actor,
                action=f"{action}.{'created' if creating else 'changed'}",
                subject_type=subject,
                subject_id=metric.pk,
                subject_label=str(metric),
                before=old,
                after=new,
            )
    return metric
