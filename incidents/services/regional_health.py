"""Status by quorum for metrics measured from several regions.

Each region keeps its own window and verdict (RegionHealth); the metric's status (MetricHealth)
follows what a quorum of the regions with fresh data agrees on (incidents.metrics.quorum): worse
at once, dated from the first tick that contributed to it; better only after the quorum has said
so for PROBE_QUORUM_RECOVERY_TICKS ticks in a row, dated from the first of them.
"""

import datetime as dt
import math
from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from incidents.metrics import health, quorum, readings
from incidents.metrics.readings import is_region_reporting as is_reporting
from incidents.metrics.rollups import exact_quantile
from incidents.models import ComponentStatus, Metric, MetricHealth, RegionHealth
from incidents.services.bulk import update_many

from .health import derive_automatic, locked_health, observed_status

REGION_FIELDS = ["status", "recent", "figure", "latest", "p95", "since", "tick_at", "reachable"]
HEALTH_FIELDS = ["status", "figure", "good_streak", "evaluated_at", "no_data_since", "stale_after"]
HEALTH_FIELDS += ["regions_reporting", "regions_agreeing", "tick_at", "since", "streak_since"]


@dataclass(frozen=True)
class RegionReading:
    metric_id: int
    region: str
    at: dt.datetime
    value: float | None
    tick: dt.datetime  # the run's scheduled time, the same in every region
    reachable: bool = True


def _finite(value: float | None) -> float | None:
    return None if value is None or math.isinf(value) else value


def _locked_regions(metric_ids, keys) -> dict[tuple[int, str], RegionHealth]:
    def locked():
        rows = (
            RegionHealth.objects.select_for_update()
            .filter(metric_id__in=metric_ids)
            .order_by("metric_id", "region")
        )
        return {(row.metric_id, row.region): row for row in rows}

    rows = locked()
    missing = keys - rows.keys()
    if missing:
        RegionHealth.objects.bulk_create(
            [RegionHealth(metric_id=m, region=r) for m, r in missing], ignore_conflicts=True
        )
        rows = locked()
    return rows


def _fold(row: RegionHealth, metric: Metric, reading: RegionReading) -> None:
    """One region's new sample: its window, figure, verdict and since when that verdict holds."""
    row.recent = health.merge_recent(row.recent, [(reading.at, reading.value)], window=metric.window)
    values = [value for _at, value in row.recent]
    figure = health.window_figure(metric, values)
    verdict = observed_status(metric, figure)
    if verdict != row.status or row.since is None:
        row.since = reading.tick
    row.status, row.figure, row.latest = verdict, _finite(figure), reading.value
    row.p95 = _finite(exact_quantile([v for v in values if v is not None], 0.95))
    row.tick_at = reading.tick if row.tick_at is None else max(row.tick_at, reading.tick)
    row.reachable = reading.reachable


# No savepoint: the caller stores the samples in the same transaction just before.
@transaction.atomic(savepoint=False)
def evaluate_regions(
    entries: list[RegionReading],
    *,
    metrics: dict[int, Metric],
    configured: dict[int, int],
    now: dt.datetime,
) -> None:
    """Folds each region's readings into its window, then decides each metric by quorum.

    `configured`: how many regions each metric's probe runs in."""
    if not entries:
        return
    metric_ids = sorted({e.metric_id for e in entries})
    by_key: dict[tuple[int, str], list[RegionReading]] = defaultdict(list)
    for entry in entries:
        by_key[(entry.metric_id, entry.region)].append(entry)
    rows = _locked_regions(metric_ids, set(by_key))
    for key, group in by_key.items():
        for entry in sorted(group, key=lambda e: e.at):
            _fold(rows[key], metrics[key[0]], entry)
    update_many(RegionHealth, [rows[key] for key in sorted(by_key)], REGION_FIELDS)

    by_metric: dict[int, list[RegionHealth]] = defaultdict(list)
    for (metric_id, _region), row in rows.items():
        by_metric[metric_id].append(row)
    latest: dict[int, dt.datetime] = {}
    ticks: dict[int, dt.datetime] = {}
    for e in entries:
        latest[e.metric_id] = max(latest.get(e.metric_id, e.at), e.at)
        ticks[e.metric_id] = max(ticks.get(e.metric_id, e.tick), e.tick)
    health_rows = locked_health(metric_ids)
    changed = {}
    for metric_id in metric_ids:
        metric, row = metrics[metric_id], health_rows[metric_id]
        verdicts = [
            quorum.Verdict(
                r.region, ComponentStatus(r.status), r.figure, r.since, is_reporting(r, metric, now=now)
            )
            for r in by_metric[metric_id]
        ]
        decision = quorum.decide(
            verdicts,
            configured=configured.get(metric_id, 1),
            setting=settings.PROBE_QUORUM,
            higher_is_worse=metric.higher_is_worse,
        )
        row.regions_reporting = sum(1 for verdict in verdicts if verdict.fresh)
        if _apply(row, decision, tick=ticks[metric_id]):
            changed[metric.component_id] = (
                metric,
                _described(row),
                _window_length(metric, by_metric[metric_id]),
                row.since,
            )
        row.evaluated_at, row.no_data_since = now, None
        row.stale_after = health.stale_after(latest[metric_id], readings.expected_interval(metric))
    update_many(MetricHealth, [health_rows[m] for m in metric_ids], HEALTH_FIELDS)
    if changed:
        derive_automatic(changed, now=now)


def _described(row: MetricHealth) -> float | None:
    """The figure the audit reason gives: a failing quorum without a value read as failed runs."""
    if row.figure is None and row.status != ComponentStatus.OPERATIONAL:
        return math.inf
    return row.figure


def _window_length(metric: Metric, rows: list[RegionHealth]) -> int:
    """How many samples each region's figure covers (the longest window among them)."""
    return max((len(row.recent) for row in rows), default=metric.window)


def _apply(row: MetricHealth, decision: quorum.Decision | None, *, tick: dt.datetime) -> bool:
    """Moves the metric's status as the quorum says; True when the status changed.

    Results of one tick arrive region by region, so the last view of a tick counts: a good
    tick is counted once (`tick_at` is the last tick counted), and a later worse view of the
    same tick takes it back."""
    if decision is None:  # too few regions report: no decision, the status stays
        row.regions_agreeing = 0
        return False
    row.regions_agreeing, row.figure = decision.agreeing, decision.figure
    current = ComponentStatus(row.status)
    if decision.status.severity >= current.severity:
        row.good_streak, row.streak_since, row.tick_at = 0, None, None
        if decision.status == current:
            return False
        row.status, row.since = decision.status, decision.since or tick
        return True
    if row.tick_at != tick:
        row.good_streak += 1
        row.streak_since, row.tick_at = row.streak_since or tick, tick
    if row.good_streak < settings.PROBE_QUORUM_RECOVERY_TICKS:
        return False
    row.status, row.since = decision.status, row.streak_since or tick
    row.good_streak, row.streak_since, row.tick_at = 0, None, None
    return True
