"""What the on-call editor keeps besides the domain: reusable update texts and sent reminders."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from incidents.translation import TranslatedField

from .incidents import IncidentKind, IncidentStatus


class UpdateTemplate(models.Model):
    """A reusable start for a declaration or an update; `components` maps slugs to statuses and
    `language` is the one it was written in (the text it always has)."""

    name = models.CharField(_("Name"), max_length=120)
    language = models.CharField(_("Written in"), max_length=8)
    kind = models.CharField(
        _("For"), max_length=16, choices=IncidentKind.choices, default=IncidentKind.INCIDENT
    )
    status = models.CharField(_("Status it sets"), max_length=16, choices=IncidentStatus.choices, blank=True)
    title = TranslatedField(_("Title"))
    body = TranslatedField(_("Text"))
    component_statuses = models.JSONField(default=dict, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["language", "kind", "name"]
        constraints = [
            models.UniqueConstraint(fields=["language", "kind", "name"], name="unique_update_template_name")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.language})"


class ReminderState(models.TextChoices):
    PENDING = "pending", _("Pending")
    SENDING = "sending", _("Sending")
    SENT = "sent", _("Sent")
    MISSED = "missed", _("Missed")  # its day ended before it could be sent


class OverdueReminder(models.Model):
    """One overdue-items email to one owner on one day: the row that makes the reminder idempotent.

    Claimed with a conditional update before sending, so a second run that day sends nothing;
    the next run releases a claim whose worker stopped, and an unsent day ends as missed.
    """

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    state = models.CharField(max_length=16, choices=ReminderState.choices, default=ReminderState.PENDING)
    item_ids = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-day", "owner"]
        constraints = [models.UniqueConstraint(fields=["owner", "day"], name="one_overdue_reminder_a_day")]

    def __str__(self) -> str:
        return f"{self.owner_id} {self.day} {self.state}"
