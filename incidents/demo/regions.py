"""The demo's regions: the public API's latency measured from three places, so the component
page shows each region's figures and the overview how many regions agree.

Its probe is an HTTP probe left disabled (the demo's hosts do not exist); the feed gives each
region a synthetic sample a minute, stored and decided by quorum through the same services as a
region's results. The three regions are active, so an HTTP probe added to the demo runs in each
of them as well as at home, and counts in a quorum only once their workers run (manage.py
probe_region key <name> prints the command), or once they are made inactive in the editor."""

import datetime as dt
import random

from django.conf import settings

from incidents.models import Metric, Outcome, Probe, ProbeKind, ProbeRegion
from incidents.services.metrics import NewSample, record_samples
from incidents.services.regional_health import RegionReading, evaluate_regions

METRIC = ("public-api", "latency-p95")
# Each region's latency as a share of the metric's baseline: Asia past the degraded threshold,
# so the regions disagree and the quorum (2 of 3) keeps the API operational.
REGION_FACTORS = {"eu-north": 1.0, "us-east": 1.9, "ap-south": 5.5}
DEMO_TARGET = "https://api.acme.example/health"


def place_regional_probe() -> int:
    """The demo regions and the demo API's HTTP probe in them, when the site has no regions of its
    own yet and the metric no probe; returns how many probes it created (0 or 1)."""
    if ProbeRegion.objects.exclude(name=settings.PROBE_HOME_REGION).exists():
        return 0
    metric = Metric.objects.filter(component__slug=METRIC[0], slug=METRIC[1], probe__isnull=True).first()
    if metric is None:
        return 0
    regions = [ProbeRegion.objects.create(name=name) for name in REGION_FACTORS]
    probe = Probe.objects.create(
        metric=metric,
        name=f"{metric} (from three regions)",
        kind=ProbeKind.HTTP,
        url=DEMO_TARGET,
        enabled=False,
        interval=metric.expected_interval,
        timeout=10,
    )
    probe.regions.set(regions)
    return 1


def regional_metric() -> Metric | None:
    return (
        Metric.objects.select_related("probe", "component")
        .filter(
            component__slug=METRIC[0],
            slug=METRIC[1],
            probe__kind=ProbeKind.HTTP,
            probe__regions__isnull=False,
        )
        .distinct()
        .first()
    )


def feed_regions(*, spec: dict, now: dt.datetime, rng: random.Random) -> int:
    """One synthetic sample from each demo region, decided by quorum; returns how many."""
    metric = regional_metric()
    if metric is None:
        return 0
    names = sorted(metric.probe.regions.values_list("name", flat=True))
    tick = now.replace(second=0, microsecond=0)
    baseline, noise = spec.get("baseline", 100.0), spec.get("noise", 10.0)
    values = {name: max(0.0, rng.gauss(baseline, noise)) * REGION_FACTORS.get(name, 1.0) for name in names}
    record_samples([NewSample(metric, value, now, Outcome.OK) for value in values.values()])
    evaluate_regions(
        [RegionReading(metric.pk, name, now, value, tick) for name, value in values.items()],
        metrics={metric.pk: metric},
        configured={metric.pk: len(names)},
        now=now,
    )
    return len(values)
