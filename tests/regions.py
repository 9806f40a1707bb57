"""A metric measured from several regions, as readers and the API see it: regions, an HTTP probe
run in each, and each region's readings decided by quorum through the services."""

import datetime as dt

from django.utils import timezone

from incidents.models import Metric, Outcome, Probe, ProbeKind, ProbeRegion
from incidents.services.metrics import NewSample, record_samples
from incidents.services.regional_health import RegionReading, evaluate_regions

REGIONS = ("eu-north", "us-east", "ap-south")


def make_regions(names=REGIONS) -> dict[str, ProbeRegion]:
    """The regions, active, with the home region made inactive so only these measure."""
    ProbeRegion.objects.filter(name="local").update(active=False)
    return {name: ProbeRegion.objects.get_or_create(name=name)[0] for name in names}


def probe_in_regions(metric: Metric, regions) -> Probe:
    probe = Probe.objects.create(
        metric=metric, name=f"{metric.slug} probe", kind=ProbeKind.HTTP, url="https://api.example/health"
    )
    probe.regions.set(regions)
    return probe


def measure_from_regions(metric: Metric, values: dict[str, float | None], *, now: dt.datetime | None = None):
    """One tick: each named region measures its value (None: a failed check). Regions not named
    send nothing."""
    now = now or timezone.now()
    metric = Metric.objects.select_related("probe").get(pk=metric.pk)
    configured = metric.probe.regions.count()
    record_samples(
        [NewSample(metric, v, now, Outcome.OK if v is not None else Outcome.FAILED) for v in values.values()]
    )
    evaluate_regions(
        [RegionReading(metric.pk, name, now, value, now) for name, value in values.items()],
        metrics={metric.pk: metric},
        configured={metric.pk: configured},
        now=now,
    )
