"""Live figures for the demo page: one synthetic sample per demo metric, through the services.

Values are noise around each metric's baseline (the demo content), raised past the threshold of
the status the demo's story gives its component at that moment (the scenario clock below), or
around what an open incident's texts say it measures, stored with `record_samples` and evaluated
with `evaluate_metrics`, exactly as probe results are, so metric health, no data and automatic
component status follow the normal path. The feed never reads a component's status: a status set
by hand, or left by an incident, cannot keep itself alive through the figures it would raise.
"""

import datetime as dt
import random

from django.db import transaction
from django.utils import timezone

from incidents.models import ComponentStatus, Incident, IncidentStatus, Metric, MetricKind, Outcome, ProbeKind
from incidents.services.health import evaluate_metrics, group_samples
from incidents.services.metrics import NewSample, record_samples

from .loader import current_figures, demo_content, demo_specs
from .measurements import CURVE_NOISE
from .regions import METRIC, feed_regions

FIXED = {IncidentStatus.MONITORING, IncidentStatus.RESOLVED}


def demo_metrics() -> list[tuple[Metric, dict]]:
    """Demo metrics that have their demo push probe, with their spec, in a fixed order."""
    specs = demo_specs()
    metrics = (
        Metric.objects.select_related("component", "probe")
        .filter(probe__kind=ProbeKind.PUSH, probe__enabled=True)
        .order_by("pk")
    )
    return [(m, specs[(m.component.slug, m.slug)]) for m in metrics if (m.component.slug, m.slug) in specs]


def scenario_statuses(now: dt.datetime) -> dict[str, ComponentStatus]:
    """The scenario clock: what the demo's story says each component (by slug) suffers at `now`.
    From a demo incident's start until its fix is in place (its first monitoring or resolved
    update in the demo content), its components are in the statuses the content gives them;
    whatever the incident's responders have posted or resolved since changes nothing here."""
    statuses: dict[str, ComponentStatus] = {}
    for spec in demo_content()["incidents"]:
        fixed = [u["minutes_after_start"] for u in spec["updates"] if u["status"] in FIXED]
        incident = Incident.objects.filter(slug__endswith=f"-{spec['key']}").only("started_at").first()
        if incident is None or incident.started_at > now:
            continue
        if fixed and now >= incident.started_at + dt.timedelta(minutes=min(fixed)):
            continue
        for slug, status in spec["components"].items():
            statuses[slug] = ComponentStatus.worst([statuses.get(slug, ComponentStatus.OPERATIONAL), status])
    return statuses


def synthetic_value(metric: Metric, spec: dict, status: str, rng: random.Random) -> float:
    baseline = spec.get("baseline", metric.degraded_threshold or 100.0)
    noise = spec.get("noise", baseline * 0.1)
    value = max(0.0, rng.gauss(baseline, noise))
    target = {
        ComponentStatus.DEGRADED_PERFORMANCE: metric.degraded_threshold,
        ComponentStatus.PARTIAL_OUTAGE: metric.partial_outage_threshold,
        ComponentStatus.MAJOR_OUTAGE: metric.major_outage_threshold,
    }.get(status)
    if target is not None:
        value = max(value, target * rng.uniform(1.05, 1.4)) if metric.higher_is_worse else min(value, target)
    if metric.kind == MetricKind.RATIO:
        value = min(value, 100.0)
    return value


@transaction.atomic
def feed_demo(*, now: dt.datetime | None = None, rng: random.Random | None = None) -> int:
    """Records one sample per demo metric and evaluates it; returns how many were recorded."""
    now = now or timezone.now()
    rng = rng or random.Random()
    pairs = demo_metrics()
    story = scenario_statuses(now)
    figures = current_figures(now=now)  # an open incident's texts say what its metrics measure
    entries = [
        NewSample(
            metric,
            quoted * rng.uniform(1 - CURVE_NOISE, 1 + CURVE_NOISE)
            if (quoted := figures.get((metric.component.slug, metric.slug))) is not None
            else synthetic_value(
                metric, spec, story.get(metric.component.slug, ComponentStatus.OPERATIONAL), rng
            ),
            now,
            Outcome.OK,
        )
        for metric, spec in pairs
    ]
    record_samples(entries)
    evaluate_metrics(group_samples(entries), metrics={metric.pk: metric for metric, _spec in pairs})
    return len(entries) + feed_regions(spec=demo_specs()[METRIC], now=now, rng=rng)
