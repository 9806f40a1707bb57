"""Component groups, components, the periods each spent in each status, and the changes between them."""

from decimal import Decimal

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from incidents.translation import TranslatedField, pick

from .ids import new_public_id


class ComponentStatus(models.TextChoices):
    OPERATIONAL = "operational", _("Operational")
    DEGRADED_PERFORMANCE = "degraded_performance", _("Degraded performance")
    PARTIAL_OUTAGE = "partial_outage", _("Partial outage")
    MAJOR_OUTAGE = "major_outage", _("Major outage")
    UNDER_MAINTENANCE = "under_maintenance", _("Under maintenance")

    @property
    def severity(self) -> int:
        return SEVERITY[self]

    @classmethod
    def worst(cls, statuses) -> "ComponentStatus":
        """The most severe of `statuses` (operational when there are none)."""
        return max((cls(s) for s in statuses), key=lambda s: s.severity, default=cls.OPERATIONAL)

    @property
    def counts_as_down(self) -> bool:
        return self in (ComponentStatus.PARTIAL_OUTAGE, ComponentStatus.MAJOR_OUTAGE)


# Maintenance ranks between degraded and outage: planned work is worse than slowness to a
# reader, but an outage during maintenance must still show as an outage.
SEVERITY = {
    ComponentStatus.OPERATIONAL: 0,
    ComponentStatus.DEGRADED_PERFORMANCE: 1,
    ComponentStatus.UNDER_MAINTENANCE: 2,
    ComponentStatus.PARTIAL_OUTAGE: 3,
    ComponentStatus.MAJOR_OUTAGE: 4,
}


class StatusMode(models.TextChoices):
    MANUAL = "manual", _("Set by hand")
    AUTOMATIC = "automatic", _("Derived from metrics")


class ComponentGroup(models.Model):
    public_id = models.CharField(max_length=12, unique=True, default=new_public_id, editable=False)
    slug = models.SlugField(_("Slug"), unique=True)
    name = TranslatedField(_("Name"))
    description = TranslatedField(_("Description"))
    position = models.PositiveIntegerField(_("Position"), default=0)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["position", "slug"]

    def __str__(self) -> str:
        return pick(self.name, language="en").text or self.slug

    original_language = "en"


class Component(models.Model):
    public_id = models.CharField(max_length=12, unique=True, default=new_public_id, editable=False)
    slug = models.SlugField(_("Slug"), unique=True)
    group = models.ForeignKey(
        ComponentGroup,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="components",
        verbose_name=_("Group"),
    )
    name = TranslatedField(_("Name"))
    description = TranslatedField(_("Description"))
    position = models.PositiveIntegerField(_("Position"), default=0)
    status = models.CharField(
        _("Status"), max_length=32, choices=ComponentStatus.choices, default=ComponentStatus.OPERATIONAL
    )
    status_mode = models.CharField(
        _("Status mode"), max_length=16, choices=StatusMode.choices, default=StatusMode.MANUAL
    )
    status_changed_at = models.DateTimeField(default=timezone.now)
    showcase = models.BooleanField(
        _("Show uptime bars"), default=True, help_text=_("Show 90-day uptime bars.")
    )
    only_show_if_degraded = models.BooleanField(_("Only show when degraded"), default=False)
    start_date = models.DateField(null=True, blank=True, help_text=_("Uptime is counted from."))
    uptime_target = models.DecimalField(
        _("uptime target (%)"),
        max_digits=6,
        decimal_places=3,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(100))],
        help_text=_("Monthly uptime the uptime page compares against, for example 99.9. Empty: no target."),
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    original_language = "en"

    class Meta:
        ordering = ["group__position", "position", "slug"]

    def __str__(self) -> str:
        return pick(self.name, language="en").text or self.slug


class StatusPeriod(models.Model):
    """An interval a component spent in one status (the open one has no end), so uptime and day
    bars are computed from intervals rather than replayed from incident updates."""

    component = models.ForeignKey(Component, on_delete=models.CASCADE, related_name="periods")
    status = models.CharField(max_length=32, choices=ComponentStatus.choices)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["component", "started_at"]
        indexes = [
            models.Index(fields=["component", "started_at"]),
            # Periods still running after a window's start (uptime, day bars): ended_at > since.
            models.Index(fields=["component", "ended_at"]),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["component"],
                condition=models.Q(ended_at__isnull=True),
                name="one_open_status_period_per_component",
            )
        ]

    def __str__(self) -> str:
        return f"{self.component} {self.status} {self.started_at:%Y-%m-%d %H:%M}"


class ComponentStatusChange(models.Model):
    """One move of a component from one status to another: what a `component_update` webhook reports.

    Its public id is half of each delivery's idempotency key."""

    public_id = models.CharField(max_length=12, unique=True, default=new_public_id, editable=False)
    component = models.ForeignKey(Component, on_delete=models.CASCADE, related_name="status_changes")
    old_status = models.CharField(max_length=32, choices=ComponentStatus.choices)
    new_status = models.CharField(max_length=32, choices=ComponentStatus.choices)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["component", "created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(old_status=models.F("new_status")), name="status_change_changes_status"
            )
        ]

    def __str__(self) -> str:
        return f"{self.component}: {self.old_status} → {self.new_status}"


class UptimeMonth(models.Model):
    """Seconds one component spent in each status during one month (in the status page's zone).

    Closed periods from `counted_from` on; the open one is added when read. The uptime page
    reads a few rows instead of replaying every status change of the months it shows."""

    component = models.ForeignKey(Component, on_delete=models.CASCADE, related_name="+")
    month = models.DateField()  # its first day
    counted_from = models.DateField(null=True, blank=True)
    operational_seconds = models.FloatField(default=0)
    degraded_performance_seconds = models.FloatField(default=0)
    partial_outage_seconds = models.FloatField(default=0)
    major_outage_seconds = models.FloatField(default=0)
    under_maintenance_seconds = models.FloatField(default=0)

    class Meta:
        ordering = ["component", "month"]
        # The uptime page reads the last months of every component: without this index it
        # reads every month ever counted.
        indexes = [models.Index(fields=["month"])]
        constraints = [
            models.UniqueConstraint(fields=["component", "month"], name="one_uptime_month_per_component")
        ]

    def __str__(self) -> str:
        return f"{self.component} {self.month:%Y-%m}"

    @staticmethod
    def column(status: str) -> str:
        return f"{status}_seconds"
