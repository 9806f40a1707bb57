"""Probes that measure a metric, their runs, circuit breakers per target and metric health.

A probe's `config` is validated by its kind's own module (incidents.probes.<kind>), never here.
"""

import hmac

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .api_tokens import token_digest
from .components import ComponentStatus
from .ids import new_public_id
from .metrics import Metric


class ProbeKind(models.TextChoices):
    HTTP = "http", _("HTTP check")
    WEBHOOK = "webhook", _("Webhook round-trip")
    SCRAPE = "scrape", _("Metric scrape")
    PUSH = "push", _("Push")
    UPSTREAM = "upstream", _("Upstream status page")


class Probe(models.Model):
    public_id = models.CharField(max_length=12, unique=True, default=new_public_id, editable=False)
    name = models.CharField(_("Name"), max_length=120)
    kind = models.CharField(_("Kind"), max_length=16, choices=ProbeKind.choices, default=ProbeKind.HTTP)
    metric = models.OneToOneField(
        Metric, on_delete=models.CASCADE, related_name="probe", verbose_name=_("Metric")
    )
    enabled = models.BooleanField(_("Enabled"), default=True)
    url = models.URLField(
        _("URL"), max_length=500, blank=True, help_text=_("What the probe calls (not for push).")
    )
    config = models.JSONField(
        _("Settings (JSON)"), default=dict, blank=True, help_text=_("Settings of this kind of probe.")
    )
    interval = models.PositiveIntegerField(
        _("Interval (seconds)"), default=60, help_text=_("Seconds between runs.")
    )
    connect_timeout = models.FloatField(
        _("Connect timeout (s)"), default=3.0, help_text=_("Seconds to establish a connection.")
    )
    read_timeout = models.FloatField(
        _("Read timeout (s)"), default=5.0, help_text=_("Seconds to wait for data once connected.")
    )
    timeout = models.FloatField(
        _("Whole-run timeout (s)"), default=5.0, help_text=_("Seconds a whole run may take (hard deadline).")
    )
    # sha256 of the push token: the token is random and long, so a fast hash is enough.
    push_token_hash = models.CharField(max_length=64, blank=True, editable=False)
    webhook_secret = models.CharField(max_length=64, blank=True, editable=False)
    next_run_at = models.DateTimeField(null=True, blank=True, db_index=True)
    regions = models.ManyToManyField(
        "incidents.ProbeRegion",
        blank=True,
        related_name="probes",
        verbose_name=_("Regions"),
        help_text=_("Where the probe runs from; none chosen means every active region."),
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        indexes = [models.Index(fields=["enabled", "next_run_at"])]

    def __str__(self) -> str:
        return self.name

    @property
    def is_scheduled(self) -> bool:
        """Push probes are not run by us; every other kind is dispatched on its interval."""
        return self.kind != ProbeKind.PUSH

    def push_token_matches(self, token: str) -> bool:
        if not self.push_token_hash or not token:
            return False
        return hmac.compare_digest(token_digest(token), self.push_token_hash)


class RunState(models.TextChoices):
    PENDING = "pending", _("Pending")
    RUNNING = "running", _("Running")
    OK = "ok", _("OK")
    FAILED = "failed", _("Failed")
    TIMEOUT = "timeout", _("Timed out")
    ERROR = "error", _("Error")
    SKIPPED = "skipped", _("Skipped (circuit open)")


ACTIVE_RUN_STATES = (RunState.PENDING, RunState.RUNNING)


class ProbeRun(models.Model):
    probe = models.ForeignKey(Probe, on_delete=models.CASCADE, related_name="runs")
    state = models.CharField(max_length=16, choices=RunState.choices, default=RunState.PENDING)
    scheduled_at = models.DateTimeField()
    # The run must have ended by `deadline`; the watchdog calls it abandoned after `abandon_after`.
    deadline = models.DateTimeField()
    abandon_after = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When the centre stored the result: with several regions, when the quorum was decided.
    recorded_at = models.DateTimeField(null=True, blank=True)
    worker = models.CharField(max_length=120, blank=True)
    region = models.CharField(max_length=40, blank=True)
    value = models.FloatField(null=True, blank=True)
    detail = models.CharField(max_length=500, blank=True)
    # Webhook round-trips: the unique nonce carried by the canary, and when it was triggered.
    nonce = models.CharField(max_length=64, null=True, blank=True, unique=True)
    triggered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-scheduled_at"]
        indexes = [
            # The watchdog's sweep: active runs past their abandon time.
            models.Index(fields=["state", "abandon_after"]),
            models.Index(fields=["probe", "-scheduled_at"]),
            # Retention pruning by age.
            models.Index(fields=["scheduled_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.probe} {self.scheduled_at:%Y-%m-%d %H:%M:%S} {self.state}"


class BreakerState(models.TextChoices):
    CLOSED = "closed", _("Closed")
    OPEN = "open", _("Open")
    HALF_OPEN = "half_open", _("Half open (trying again)")


class CircuitBreaker(models.Model):
    """Failure counting for one probe target, so a dead target is not hammered.

    Keyed by URL, not host, so one broken endpoint does not silence its healthy neighbours."""

    target = models.CharField(max_length=500, unique=True)
    state = models.CharField(max_length=16, choices=BreakerState.choices, default=BreakerState.CLOSED)
    consecutive_failures = models.PositiveIntegerField(default=0)
    opened_at = models.DateTimeField(null=True, blank=True)
    retry_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["target"]

    def __str__(self) -> str:
        return f"{self.target} ({self.state})"


class MetricHealth(models.Model):
    """What status evaluation remembers about a metric between samples, so it never rereads them.

    `recent`: the window's newest samples, [iso time, value or null for a failure], newest last."""

    metric = models.OneToOneField(Metric, on_delete=models.CASCADE, related_name="health")
    status = models.CharField(
        max_length=32, choices=ComponentStatus.choices, default=ComponentStatus.OPERATIONAL
    )
    recent = models.JSONField(default=list, blank=True)
    figure = models.FloatField(null=True, blank=True, help_text=_("The windowed value last evaluated."))
    good_streak = models.PositiveSmallIntegerField(default=0)
    evaluated_at = models.DateTimeField(null=True, blank=True)
    # No sample since 3 intervals before this moment means no data.
    stale_after = models.DateTimeField(null=True, blank=True, db_index=True)
    no_data_since = models.DateTimeField(null=True, blank=True)
    # Measured from several regions: how many report fresh data, and how many of those agree on
    # the status; the tick the good streak last counted and its first, and when the status began.
    regions_reporting = models.PositiveSmallIntegerField(default=0)
    regions_agreeing = models.PositiveSmallIntegerField(default=0)
    tick_at = models.DateTimeField(null=True, blank=True)
    since = models.DateTimeField(null=True, blank=True)
    streak_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "metric health"

    def __str__(self) -> str:
        return f"{self.metric}: {self.status}"
