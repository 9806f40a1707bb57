"""Metrics of a component, their thresholds, raw samples and rollups."""

import math

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from incidents.translation import TranslatedField, pick

from .components import Component, ComponentStatus


class MetricKind(models.TextChoices):
    LATENCY = "latency", _("Latency or delay")
    RATIO = "ratio", _("Ratio (0 to 100 %)")
    GAUGE = "gauge", _("Gauge")


class Unit(models.TextChoices):
    MILLISECONDS = "ms", _("milliseconds")
    SECONDS = "s", _("seconds")
    PERCENT = "%", _("percent")
    COUNT = "count", _("count")


class Aggregation(models.TextChoices):
    P95 = "p95", _("95th percentile")
    MEAN = "mean", _("mean")
    MAX = "max", _("maximum")
    LATEST = "latest", _("latest value")


# The field that holds each status's threshold, mildest first.
THRESHOLD_FIELDS = {
    ComponentStatus.DEGRADED_PERFORMANCE: "degraded_threshold",
    ComponentStatus.PARTIAL_OUTAGE: "partial_outage_threshold",
    ComponentStatus.MAJOR_OUTAGE: "major_outage_threshold",
}


class Metric(models.Model):
    component = models.ForeignKey(
        Component, on_delete=models.CASCADE, related_name="metrics", verbose_name=_("Component")
    )
    slug = models.SlugField(_("Slug"))
    name = TranslatedField(_("Name"))
    kind = models.CharField(_("Kind"), max_length=16, choices=MetricKind.choices, default=MetricKind.LATENCY)
    unit = models.CharField(_("Unit"), max_length=8, choices=Unit.choices, default=Unit.MILLISECONDS)
    precision = models.PositiveSmallIntegerField(
        _("Decimals shown"), default=0, help_text=_("Decimals shown.")
    )
    aggregation = models.CharField(
        _("Aggregation"), max_length=8, choices=Aggregation.choices, default=Aggregation.P95
    )
    window = models.PositiveSmallIntegerField(
        _("Samples evaluated"),
        default=5,
        help_text=_("How many recent samples a status evaluation looks at."),
    )
    expected_interval = models.PositiveIntegerField(
        _("Seconds between samples"),
        default=60,
        help_text=_("Seconds between samples; no sample for 3 intervals is no data."),
    )
    higher_is_worse = models.BooleanField(_("Higher is worse"), default=True)
    degraded_threshold = models.FloatField(_("Degraded performance at"), null=True, blank=True)
    partial_outage_threshold = models.FloatField(_("Partial outage at"), null=True, blank=True)
    major_outage_threshold = models.FloatField(_("Major outage at"), null=True, blank=True)
    position = models.PositiveIntegerField(_("Position"), default=0)
    # Write-time copy of the newest sample, so pages never scan samples for "the live value".
    latest_value = models.FloatField(null=True, blank=True)
    latest_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    original_language = "en"

    class Meta:
        ordering = ["component", "position", "slug"]
        constraints = [models.UniqueConstraint(fields=["component", "slug"], name="unique_metric_slug")]

    def __str__(self) -> str:
        return f"{self.component}: {pick(self.name, language='en').text or self.slug}"

    def thresholds(self) -> list[tuple[ComponentStatus, float]]:
        """Thresholds that are set, mildest first."""
        pairs = [(status, getattr(self, name)) for status, name in THRESHOLD_FIELDS.items()]
        return [(status, limit) for status, limit in pairs if limit is not None]

    def status_for(self, value: float) -> ComponentStatus:
        """The component status a value of this metric stands for."""
        result = ComponentStatus.OPERATIONAL
        for status, limit in self.thresholds():
            breached = value >= limit if self.higher_is_worse else value <= limit
            if breached:
                result = status
        return result

    def clean(self) -> None:
        limits = self.thresholds()
        for (mild, mild_limit), (severe, severe_limit) in zip(limits, limits[1:], strict=False):
            in_order = mild_limit < severe_limit if self.higher_is_worse else mild_limit > severe_limit
            if not in_order:
                template = (
                    _(
                        "The %(mild)s threshold (%(mild_limit)s) must be below the %(severe)s threshold (%(severe_limit)s)."
                    )
                    if self.higher_is_worse
                    else _(
                        "The %(mild)s threshold (%(mild_limit)s) must be above the %(severe)s threshold (%(severe_limit)s)."
                    )
                )
                message = template % {
                    "mild": mild.label,
                    "severe": severe.label,
                    "mild_limit": mild_limit,
                    "severe_limit": severe_limit,
                }
                raise ValidationError({THRESHOLD_FIELDS[severe]: message})
        if self.kind in (MetricKind.LATENCY, MetricKind.RATIO):
            for status, limit in limits:
                if limit < 0:
                    raise ValidationError(
                        {THRESHOLD_FIELDS[status]: _("A threshold of this metric cannot be negative.")}
                    )

    def validate_value(self, value: float) -> None:
        """Refuses values this metric cannot take (NaN, infinities, negative latencies)."""
        if not math.isfinite(value):
            raise ValidationError(_("A sample must be a finite number."), code="not_finite")
        if self.kind == MetricKind.LATENCY and value < 0:
            raise ValidationError(_("A latency cannot be negative."), code="negative_latency")
        if self.kind == MetricKind.RATIO and not 0 <= value <= 100:
            raise ValidationError(_("A ratio must lie between 0 and 100."), code="out_of_range")
        if abs(value) > 1e15:
            raise ValidationError(_("The value is too large."), code="too_large")


class Outcome(models.TextChoices):
    OK = "ok", _("OK")
    FAILED = "failed", _("Failed")
    TIMEOUT = "timeout", _("Timed out")


class Sample(models.Model):
    metric = models.ForeignKey(Metric, on_delete=models.CASCADE, related_name="samples")
    at = models.DateTimeField()
    value = models.FloatField(null=True, blank=True, help_text=_("Empty when the probe failed."))
    outcome = models.CharField(max_length=16, choices=Outcome.choices, default=Outcome.OK)
    imported = models.BooleanField(
        default=False, help_text=_("Imported as history, not measured live; kept by the retention pruning.")
    )

    class Meta:
        ordering = ["metric", "-at"]
        # Serves "the last N samples of a metric" and retention pruning by time.
        indexes = [models.Index(fields=["metric", "-at"]), models.Index(fields=["at"])]

    def __str__(self) -> str:
        return f"{self.metric_id} {self.at:%Y-%m-%d %H:%M:%S} {self.value} {self.outcome}"


class Resolution(models.TextChoices):
    MINUTE = "minute", _("minute")
    HOUR = "hour", _("hour")
    DAY = "day", _("day")


class Rollup(models.Model):
    """Aggregate of a metric's samples over one minute, hour or day.

    `sketch`, a mergeable histogram, gives p95 with a bounded error without rereading samples."""

    metric = models.ForeignKey(Metric, on_delete=models.CASCADE, related_name="rollups")
    resolution = models.CharField(max_length=8, choices=Resolution.choices)
    bucket_start = models.DateTimeField()
    count = models.PositiveIntegerField(default=0)
    failures = models.PositiveIntegerField(default=0)
    minimum = models.FloatField(null=True, blank=True)
    maximum = models.FloatField(null=True, blank=True)
    total = models.FloatField(default=0.0)
    p95 = models.FloatField(null=True, blank=True)
    sketch = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["metric", "resolution", "bucket_start"]
        constraints = [
            models.UniqueConstraint(
                fields=["metric", "resolution", "bucket_start"], name="unique_rollup_bucket"
            )
        ]

    def __str__(self) -> str:
        return f"{self.metric_id} {self.resolution} {self.bucket_start:%Y-%m-%d %H:%M}"
