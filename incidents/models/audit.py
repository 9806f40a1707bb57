"""The audit trail: who changed what, when, with the state before and after."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Subject(models.TextChoices):
    COMPONENT_GROUP = "component_group", _("Component group")
    COMPONENT = "component", _("Component")
    METRIC = "metric", _("Metric")
    THRESHOLD = "threshold", _("Threshold")
    PROBE = "probe", _("Probe")
    PROBE_REGION = "probe_region", _("Probe region")
    ALERT_RULE = "alert_rule", _("Alert rule")
    INCIDENT = "incident", _("Incident")
    UPDATE = "update", _("Incident update")
    POSTMORTEM = "postmortem", _("Postmortem")
    ACTION_ITEM = "action_item", _("Action item")
    SUBSCRIBER = "subscriber", _("Subscriber")
    USER = "user", _("User")
    CONFIGURATION = "configuration", _("Configuration")


# Subjects whose changes are the first suspects in an outage (shown on the editor overview).
CONFIGURATION_SUBJECTS = (
    Subject.COMPONENT,
    Subject.COMPONENT_GROUP,
    Subject.METRIC,
    Subject.THRESHOLD,
    Subject.PROBE,
    Subject.PROBE_REGION,
    Subject.ALERT_RULE,
    Subject.CONFIGURATION,
)


class AuditEvent(models.Model):
    # The subject is named by type and id, not by a foreign key: the trail must outlive
    # the objects it describes, deleted ones included.
    at = models.DateTimeField(default=timezone.now, db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_label = models.CharField(max_length=150, help_text=_("User name, or the automation that acted."))
    action = models.CharField(max_length=64)
    subject_type = models.CharField(max_length=32, choices=Subject.choices)
    subject_id = models.CharField(max_length=64)
    subject_label = models.CharField(max_length=300)
    incident = models.ForeignKey(
        "incidents.Incident", null=True, blank=True, on_delete=models.SET_NULL, related_name="audit_events"
    )
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["subject_type", "subject_id", "-at"])]

    def __str__(self) -> str:
        return (
            f"{self.at:%Y-%m-%d %H:%M} {self.actor_label} {self.action} {self.subject_type}:{self.subject_id}"
        )
