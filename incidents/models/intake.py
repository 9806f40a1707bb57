"""Alerts from Alertmanager and Grafana, and the rules that turn them into component statuses.

Matchers use Alertmanager's syntax; the first enabled rule whose matchers all hold takes the
alert. Every alert is kept, matched or not, so nothing an alerting system sends is dropped.
"""

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .components import Component, ComponentStatus
from .ids import new_public_id
from .incidents import Incident


class AlertSource(models.TextChoices):
    ALERTMANAGER = "alertmanager", _("Prometheus Alertmanager")
    GRAFANA = "grafana", _("Grafana alerting")


class AlertState(models.TextChoices):
    FIRING = "firing", _("Firing")
    RESOLVED = "resolved", _("Resolved")


# What a firing alert may set a component to.
ALERT_STATUSES = [
    (ComponentStatus.DEGRADED_PERFORMANCE.value, ComponentStatus.DEGRADED_PERFORMANCE.label),
    (ComponentStatus.PARTIAL_OUTAGE.value, ComponentStatus.PARTIAL_OUTAGE.label),
    (ComponentStatus.MAJOR_OUTAGE.value, ComponentStatus.MAJOR_OUTAGE.label),
]


class AlertRule(models.Model):
    public_id = models.CharField(max_length=12, unique=True, default=new_public_id, editable=False)
    name = models.CharField(_("Name"), max_length=120)
    source = models.CharField(
        _("Source"),
        max_length=16,
        choices=AlertSource.choices,
        blank=True,
        help_text=_("Empty: alerts from any source."),
    )
    matchers = models.JSONField(
        _("Label matchers"),
        default=list,
        help_text=_('Label matchers that must all hold, e.g. service="webhooks".'),
    )
    component = models.ForeignKey(
        Component, on_delete=models.CASCADE, related_name="alert_rules", verbose_name=_("Component")
    )
    status = models.CharField(
        _("Status while the alert fires"),
        max_length=32,
        choices=ALERT_STATUSES,
        default=ComponentStatus.MAJOR_OUTAGE,
    )
    open_incident = models.BooleanField(
        _("Open a draft incident when it fires"),
        default=True,
        help_text=_("Open a draft incident for on-call when the alert fires."),
    )
    position = models.PositiveIntegerField(
        _("Order"), default=0, help_text=_("Rules are tried in this order.")
    )
    enabled = models.BooleanField(_("Enabled"), default=True)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["position", "id"]

    def __str__(self) -> str:
        return self.name


class IntakeAlert(models.Model):
    """One alert as its source identifies it (by fingerprint), with the latest of what it said."""

    public_id = models.CharField(max_length=12, unique=True, default=new_public_id, editable=False)
    source = models.CharField(max_length=16, choices=AlertSource.choices)
    fingerprint = models.CharField(max_length=128)
    name = models.CharField(max_length=200, blank=True)
    state = models.CharField(max_length=16, choices=AlertState.choices)
    labels = models.JSONField(default=dict)
    annotations = models.JSONField(default=dict)
    generator_url = models.CharField(max_length=500, blank=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField(null=True, blank=True)
    rule = models.ForeignKey(
        AlertRule, null=True, blank=True, on_delete=models.SET_NULL, related_name="alerts"
    )
    component = models.ForeignKey(
        Component, null=True, blank=True, on_delete=models.SET_NULL, related_name="intake_alerts"
    )
    # The status the alert holds its component at while firing (copied from the rule it matched).
    status = models.CharField(max_length=32, choices=ComponentStatus.choices, blank=True)
    incident = models.ForeignKey(
        Incident, null=True, blank=True, on_delete=models.SET_NULL, related_name="intake_alerts"
    )
    first_received_at = models.DateTimeField(default=timezone.now)
    last_received_at = models.DateTimeField(default=timezone.now)
    times_received = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["-last_received_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["source", "fingerprint"], name="one_alert_per_source_fingerprint")
        ]
        indexes = [models.Index(fields=["component", "state"])]

    def __str__(self) -> str:
        return f"{self.name or self.fingerprint} ({self.state})"

    @property
    def is_unknown(self) -> bool:
        """No rule took it: listed in the editor for someone to write one."""
        return self.rule_id is None

    def silent_for(self, now: dt.datetime) -> dt.timedelta | None:
        """How long a firing alert has been silent past INTAKE_SILENT_AFTER_SECONDS; None otherwise."""
        quiet = now - self.last_received_at
        if self.state != AlertState.FIRING or quiet.total_seconds() < settings.INTAKE_SILENT_AFTER_SECONDS:
            return None
        return quiet
