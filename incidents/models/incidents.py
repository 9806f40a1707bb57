"""Incidents, scheduled maintenance, and their timeline updates."""

from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from incidents.translation import TranslatedField, pick
from incidents.validation.time_zones import check_time_zone

from .components import Component, ComponentStatus
from .ids import new_public_id


class IncidentKind(models.TextChoices):
    INCIDENT = "incident", _("Incident")
    MAINTENANCE = "maintenance", _("Scheduled maintenance")


class Impact(models.TextChoices):
    NONE = "none", _("None")
    MINOR = "minor", _("Minor")
    MAJOR = "major", _("Major")
    CRITICAL = "critical", _("Critical")


class IncidentStatus(models.TextChoices):
    INVESTIGATING = "investigating", _("Investigating")
    IDENTIFIED = "identified", _("Identified")
    MONITORING = "monitoring", _("Monitoring")
    RESOLVED = "resolved", _("Resolved")
    SCHEDULED = "scheduled", _("Scheduled")
    IN_PROGRESS = "in_progress", _("In progress")
    VERIFYING = "verifying", _("Verifying")
    COMPLETED = "completed", _("Completed")

    @property
    def is_closed(self) -> bool:
        return self in (IncidentStatus.RESOLVED, IncidentStatus.COMPLETED)


OPEN_STATUSES = [status.value for status in IncidentStatus if not status.is_closed]

STATUSES_BY_KIND = {
    IncidentKind.INCIDENT: (
        IncidentStatus.INVESTIGATING,
        IncidentStatus.IDENTIFIED,
        IncidentStatus.MONITORING,
        IncidentStatus.RESOLVED,
    ),
    IncidentKind.MAINTENANCE: (
        IncidentStatus.SCHEDULED,
        IncidentStatus.IN_PROGRESS,
        IncidentStatus.VERIFYING,
        IncidentStatus.COMPLETED,
    ),
}


class IncidentQuerySet(models.QuerySet):
    def published(self):
        return self.filter(published_at__isnull=False)

    def incidents(self):
        return self.filter(kind=IncidentKind.INCIDENT)

    def maintenances(self):
        return self.filter(kind=IncidentKind.MAINTENANCE)

    def open(self):
        # The open statuses of both kinds rather than all but the closed ones: the (kind, status)
        # index finds them without reading every incident there ever was.
        return self.filter(kind__in=IncidentKind.values, status__in=OPEN_STATUSES)


class Incident(models.Model):
    public_id = models.CharField(max_length=12, unique=True, default=new_public_id, editable=False)
    slug = models.SlugField(max_length=80, unique=True)
    kind = models.CharField(
        _("Kind"), max_length=16, choices=IncidentKind.choices, default=IncidentKind.INCIDENT
    )
    title = TranslatedField(_("Title"))
    original_language = models.CharField(max_length=8, default="en")
    impact = models.CharField(_("Impact"), max_length=16, choices=Impact.choices, default=Impact.MINOR)
    status = models.CharField(
        _("Status"), max_length=16, choices=IncidentStatus.choices, default=IncidentStatus.INVESTIGATING
    )
    components = models.ManyToManyField(Component, blank=True, related_name="incidents")
    # Symmetric: linking A to B links B to A (incidents.lifecycle.edits).
    related = models.ManyToManyField("self", blank=True)
    started_at = models.DateTimeField(_("Started"), default=timezone.now)
    monitoring_at = models.DateTimeField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    scheduled_for = models.DateTimeField(_("Starts"), null=True, blank=True)
    scheduled_until = models.DateTimeField(_("Ends"), null=True, blank=True)
    # Drafts (for example opened by a probe breach) have no publication time and stay private.
    published_at = models.DateTimeField(null=True, blank=True)
    # A record of the past (Statuspage's `backfilled`): entered without notifying anyone or
    # touching current component status; its impact counts on its own days.
    backfilled = models.BooleanField(_("Record of the past"), default=False)
    # The IANA zone its times are shown in; blank: the status page's (STATUS_TIME_ZONE).
    display_time_zone = models.CharField(
        _("Time zone"), max_length=64, blank=True, default="", validators=[check_time_zone]
    )
    # The id it had on the Statuspage page it was imported from, so a re-run finds it.
    statuspage_id = models.CharField(max_length=64, blank=True, default="", editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = IncidentQuerySet.as_manager()

    class Meta:
        ordering = ["-started_at"]
        indexes = [
            models.Index(fields=["kind", "status"]),
            # By start, and covering the history's count of published past events (an index-only
            # count rather than a read of every incident).
            models.Index(
                fields=["-started_at", "published_at", "kind", "status"], name="incident_started_listing"
            ),
            # The history's page count: an index-only count of published incidents.
            models.Index(fields=["published_at"]),
            # The incidents a day bar lists: unresolved, or resolved within its window.
            models.Index(fields=["resolved_at"]),
            # Past maintenance, latest window first, read without sorting every window.
            models.Index(fields=["kind", "-scheduled_for", "-started_at"]),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["statuspage_id"],
                condition=~models.Q(statuspage_id=""),
                name="one_incident_per_statuspage_id",
            )
        ]

    def __str__(self) -> str:
        return pick(self.title, language="en", original=self.original_language).text or self.slug

    @property
    def is_maintenance(self) -> bool:
        return self.kind == IncidentKind.MAINTENANCE

    @property
    def is_open(self) -> bool:
        return not IncidentStatus(self.status).is_closed

    @property
    def is_draft(self) -> bool:
        return self.published_at is None

    @property
    def time_zone_name(self) -> str:
        """The IANA name of the zone its times are shown in."""
        return self.display_time_zone or settings.STATUS_TIME_ZONE

    @property
    def time_zone(self) -> ZoneInfo:
        return ZoneInfo(self.time_zone_name)

    def allowed_statuses(self) -> tuple[IncidentStatus, ...]:
        return STATUSES_BY_KIND[IncidentKind(self.kind)]


class IncidentUpdateQuerySet(models.QuerySet):
    def timeline(self):
        """Newest first by the time shown to readers, which may be backdated."""
        return self.order_by("-display_at", "-created_at", "-id")

    def status_changes(self):
        """The updates that set a status, leaving out context events."""
        return self.exclude(status="")


class IncidentUpdate(models.Model):
    public_id = models.CharField(max_length=12, unique=True, default=new_public_id, editable=False)
    incident = models.ForeignKey(Incident, on_delete=models.CASCADE, related_name="updates")
    # Empty for a context event (a deploy before, a note during): it changes no status, and the
    # incident takes the status of its newest update that has one.
    status = models.CharField(
        _("Status"), max_length=16, choices=IncidentStatus.choices, blank=True, default=""
    )
    body = TranslatedField(_("Text"))
    # The sanitised HTML of each text of body, written with it (incidents.rendering.rendered_texts).
    body_html = models.JSONField(default=dict, blank=True, editable=False)
    original_language = models.CharField(max_length=8, default="en")
    # The time readers see. Timelines written after the fact carry earlier times than created_at.
    display_at = models.DateTimeField(_("Shown at"), default=timezone.now)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    deliver_notifications = models.BooleanField(default=True)
    statuspage_id = models.CharField(max_length=64, blank=True, default="", editable=False)
    version = models.PositiveIntegerField(default=1)

    objects = IncidentUpdateQuerySet.as_manager()

    # An update shown more than this long before it was posted is marked as backdated.
    BACKDATE_TOLERANCE_SECONDS = 120

    class Meta:
        ordering = ["-display_at", "-created_at", "-id"]
        indexes = [
            models.Index(fields=["incident", "-display_at"]),
            # The order of timeline(), covering what the page feed's newest-first walk reads: with
            # planner statistics SQLite otherwise sorts every update rather than look up rows.
            models.Index(fields=["-display_at", "-created_at", "-id", "incident"], name="update_timeline"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["statuspage_id"],
                condition=~models.Q(statuspage_id=""),
                name="one_update_per_statuspage_id",
            )
        ]

    def __str__(self) -> str:
        return f"{self.incident} — {self.status} at {self.display_at:%Y-%m-%d %H:%M}"

    @property
    def is_backdated(self) -> bool:
        return (self.created_at - self.display_at).total_seconds() > self.BACKDATE_TOLERANCE_SECONDS

    @property
    def status_label(self) -> str:
        """The status it set, or "Note" for a context event, in the active language."""
        return str(IncidentStatus(self.status).label) if self.status else str(_("Note"))


class ComponentChange(models.Model):
    """The status a component moved to with an update (Statuspage's affected_components); a
    declaration without a text holds them on `declared_on` until the first written update."""

    update = models.ForeignKey(
        IncidentUpdate, null=True, blank=True, on_delete=models.CASCADE, related_name="component_changes"
    )
    declared_on = models.ForeignKey(
        Incident, null=True, blank=True, on_delete=models.CASCADE, related_name="declared_changes"
    )
    component = models.ForeignKey(Component, on_delete=models.CASCADE, related_name="+")
    old_status = models.CharField(max_length=32, choices=ComponentStatus.choices)
    new_status = models.CharField(max_length=32, choices=ComponentStatus.choices)
    # Why a resolving update left the component where it is ("held by: …"), in every page language.
    held_by = TranslatedField()

    class Meta:
        ordering = ["update", "component__position"]
        constraints = [
            models.UniqueConstraint(fields=["update", "component"], name="one_change_per_component"),
            models.CheckConstraint(
                condition=models.Q(update__isnull=False) | models.Q(declared_on__isnull=False),
                name="change_of_an_update_or_a_declaration",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.component}: {self.old_status} → {self.new_status}"
