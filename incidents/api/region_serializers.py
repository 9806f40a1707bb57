"""Regions in our REST API: what each region measured of a metric, read alongside its live figure."""

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from incidents.models import ComponentStatus, Metric
from incidents.selectors.regions import metric_regions

from .strict import ApiSerializer


class RegionFigureSerializer(ApiSerializer):
    name = serializers.CharField(source="region", read_only=True, help_text=_("The region, as in eu-north."))
    latest = serializers.FloatField(
        read_only=True, allow_null=True, help_text=_("The region's latest value; null for a failed check.")
    )
    p95 = serializers.FloatField(
        read_only=True, allow_null=True, help_text=_("95th percentile over the region's window.")
    )
    status = serializers.ChoiceField(
        choices=ComponentStatus.choices,
        read_only=True,
        allow_null=True,
        help_text=_("The region's own verdict; null before its first result."),
    )
    reporting = serializers.BooleanField(
        read_only=True,
        help_text=_(
            "Whether the region has fresh data and passes its reachability check; one that does not "
            "counts in no quorum."
        ),
    )
    tick_at = serializers.DateTimeField(
        read_only=True, allow_null=True, help_text=_("The scheduled time of the region's latest run.")
    )


class MetricListSerializer(serializers.ListSerializer):
    """Reads the regions of a whole page of metrics at once (three queries, not three a metric)."""

    def to_representation(self, data):
        metrics = list(data.all() if hasattr(data, "all") else data)
        attach_regions(metrics)
        return super().to_representation(metrics)


def attach_regions(metrics: list[Metric]) -> None:
    found = metric_regions(metrics, now=timezone.now())
    for metric in metrics:
        metric.region_figures = found.get(metric.pk, [])


def region_figures(metric: Metric) -> list:
    if not hasattr(metric, "region_figures"):
        attach_regions([metric])
    return metric.region_figures
