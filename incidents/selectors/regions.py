"""Reads of probe regions: which regions measure which probe, and what each region last measured
of a metric (for the component page and the API)."""

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings

from incidents.metrics.readings import is_region_reporting
from incidents.models import ComponentStatus, Metric, Probe, ProbeKind, ProbeRegion, RegionHealth

# Kinds measured at home only: a push arrives where it is sent, and a webhook round trip's
# trigger time is written to the database as it is sent.
HOME_ONLY_KINDS = {ProbeKind.PUSH, ProbeKind.WEBHOOK}


def active_regions() -> list[ProbeRegion]:
    """The active regions; with none at all (a database from before regions), the home region."""
    regions = list(ProbeRegion.objects.filter(active=True))
    if not regions and not ProbeRegion.objects.exists():
        return [ProbeRegion(name=settings.PROBE_HOME_REGION)]
    return regions


def regions_of(
    probe_ids: Iterable[int], *, active: list[ProbeRegion] | None = None
) -> dict[int, list[ProbeRegion]]:
    """The active regions each probe runs in: those it was given, or every active one."""
    probe_ids = list(probe_ids)
    active = active_regions() if active is None else active
    by_id = {region.pk: region for region in active}
    chosen: dict[int, list[ProbeRegion]] = defaultdict(list)
    limited: set[int] = set()
    rows = Probe.regions.through.objects.filter(probe_id__in=probe_ids).values_list(
        "probe_id", "proberegion_id"
    )
    for probe_id, region_id in rows:
        limited.add(probe_id)
        if region_id in by_id:
            chosen[probe_id].append(by_id[region_id])
    return {pk: (chosen[pk] if pk in limited else list(active)) for pk in probe_ids}


def measuring_regions(
    kinds: dict[int, str], *, active: list[ProbeRegion] | None = None
) -> dict[int, list[ProbeRegion]]:
    """The regions each probe (by id: its kind) is measured from: those it runs in, and the home
    region alone for a kind measured at home only."""
    active = active_regions() if active is None else active
    home = [r for r in active if r.is_home][:1] or [ProbeRegion(name=settings.PROBE_HOME_REGION)]
    return {
        pk: home if kinds[pk] in HOME_ONLY_KINDS else regions
        for pk, regions in regions_of(kinds, active=active).items()
    }


@dataclass(frozen=True)
class RegionFigure:
    """One region's view of a metric; without `health` the region has sent nothing yet."""

    region: str
    health: RegionHealth | None
    reporting: bool  # fresh data, and its reachability check passes

    @property
    def latest(self) -> float | None:
        return self.health.latest if self.health else None

    @property
    def p95(self) -> float | None:
        return self.health.p95 if self.health else None

    @property
    def status(self) -> ComponentStatus | None:
        return ComponentStatus(self.health.status) if self.health else None

    @property
    def tick_at(self) -> dt.datetime | None:
        return self.health.tick_at if self.health else None


def metric_regions(
    metrics: Sequence[Metric], *, now: dt.datetime, active: list[ProbeRegion] | None = None
) -> dict[int, list[RegionFigure]]:
    """For each metric measured from two regions or more (load them with their probe), each of
    those regions' figures in name order; metrics measured from one place are left out. Three
    queries at most, none past the first on a single-region install."""
    active = active_regions() if active is None else active
    if len(active) < 2:
        return {}
    probes = {m.probe.pk: m for m in metrics if getattr(m, "probe", None) is not None}
    if not probes:
        return {}
    kinds = {pk: metric.probe.kind for pk, metric in probes.items()}
    placed = {
        probes[pk].pk: sorted(region.name for region in regions)
        for pk, regions in measuring_regions(kinds, active=active).items()
        if len(regions) >= 2
    }
    if not placed:
        return {}
    rows = {
        (row.metric_id, row.region): row for row in RegionHealth.objects.filter(metric_id__in=list(placed))
    }
    by_id = {m.pk: m for m in metrics}
    figures = {}
    for metric_id, names in placed.items():
        metric = by_id[metric_id]
        figures[metric_id] = [
            RegionFigure(
                region=name,
                health=rows.get((metric_id, name)),
                reporting=(metric_id, name) in rows
                and is_region_reporting(rows[(metric_id, name)], metric, now=now),
            )
            for name in names
        ]
    return figures
