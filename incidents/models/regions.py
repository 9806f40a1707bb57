"""Places probes run from, and what each place last measured of each metric.

A region is a name and the Celery queue its workers consume. The home region's workers reach
the database and consume `probes`, as a single-place install always has; any other region's
workers reach only the broker: they receive their runs in messages sealed with the region's key
and send back results signed with it (incidents.probes.sealing).
"""

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .components import ComponentStatus
from .metrics import Metric

region_name = RegexValidator(
    r"^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$",
    _("Lower-case letters, digits and inner hyphens, as in eu-north."),
)


class ProbeRegion(models.Model):
    name = models.CharField(_("Name"), max_length=40, unique=True, validators=[region_name])
    active = models.BooleanField(
        _("Active"), default=True, help_text=_("Inactive regions are sent no runs and count in no quorum.")
    )
    reference_url = models.URLField(
        _("Reachability check"),
        max_length=500,
        blank=True,
        help_text=_(
            "A URL the region's workers fetch to tell a region cut off from the targets it measures."
        ),
    )
    # Raised to revoke a region's key: results signed with the previous one are refused.
    key_generation = models.PositiveIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_home(self) -> bool:
        return self.name == settings.PROBE_HOME_REGION

    @property
    def queue(self) -> str:
        return queue_of(self.name)


def queue_of(region: str) -> str:
    return "probes" if region == settings.PROBE_HOME_REGION else f"probes.{region}"


class RegionHealth(models.Model):
    """One region's own view of one metric: its window, its verdict and since when it holds.

    The metric's status (MetricHealth) is what a quorum of these agrees on."""

    metric = models.ForeignKey(Metric, on_delete=models.CASCADE, related_name="region_health")
    region = models.CharField(max_length=40)
    status = models.CharField(
        max_length=32, choices=ComponentStatus.choices, default=ComponentStatus.OPERATIONAL
    )
    recent = models.JSONField(default=list, blank=True)
    figure = models.FloatField(null=True, blank=True, help_text=_("The windowed value last evaluated."))
    latest = models.FloatField(null=True, blank=True)
    p95 = models.FloatField(null=True, blank=True)
    # The tick (scheduled time) of the first sample of the current verdict, and of the latest one.
    since = models.DateTimeField(null=True, blank=True)
    tick_at = models.DateTimeField(null=True, blank=True)
    # False while the region's own reachability check fails: its figures count as no data.
    reachable = models.BooleanField(default=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["metric", "region"], name="one_health_per_region")]
        ordering = ["region"]

    def __str__(self) -> str:
        return f"{self.metric} from {self.region}: {self.status}"
