"""Turning new samples into metric statuses and automatic component statuses.

Called by whatever stores samples from probes (probe results, the push endpoint and the
webhook receiver), inside their transaction.
"""

import datetime as dt
import math
from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation

from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident
from incidents.metrics import health, quorum, readings
from incidents.models import (
    AlertState,
    Component,
    ComponentStatus,
    Impact,
    Incident,
    IncidentStatus,
    Metric,
    MetricHealth,
    ProbeKind,
    StatusMode,
    Subject,
)
from incidents.probes import upstream
from incidents.public.versions import live_changed
from incidents.services.bulk import insert_rows, update_many, update_rows

from .audit import record_event
from .components import observe_component_status

AUTOMATION = "probes"


def observed_status(metric: Metric, figure: float | None) -> ComponentStatus:
    probe = getattr(metric, "probe", None)
    if figure is None:
        return ComponentStatus.OPERATIONAL
    if probe is not None and probe.kind == ProbeKind.UPSTREAM and abs(figure) != float("inf"):
        return upstream.status_for_value(figure)
    return health.status_for_figure(metric, figure)


def _locked_rows(metric_ids) -> dict[int, MetricHealth]:
    rows = MetricHealth.objects.select_for_update().filter(metric_id__in=metric_ids).order_by("metric_id")
    return {row.metric_id: row for row in rows}


def _created_where_missing(metric_ids, read):
    """`read(ids)` of the metrics' health rows, after creating the rows missing."""
    rows = read(metric_ids)
    missing = set(metric_ids) - rows.keys()
    if missing:
        insert_rows(
            MetricHealth, ("metric",), [(metric_id,) for metric_id in sorted(missing)], ignore_conflicts=True
        )
        rows.update(read(missing))
    return rows


def locked_health(metric_ids) -> dict[int, MetricHealth]:
    """The metrics' health rows, locked until the transaction ends; created where missing."""
    return _created_where_missing(metric_ids, _locked_rows)


@dataclass(slots=True)
class _Health:
    """What evaluation reads and writes of a metric's MetricHealth row: plain values, not an
    instance, as evaluation runs for every probe result."""

    pk: int
    metric_id: int
    status: str
    good_streak: int
    recent: list
    figure: float | None = None
    evaluated_at: dt.datetime | None = None
    no_data_since: dt.datetime | None = None
    stale_after: dt.datetime | None = None


EVALUATED = ("recent", "figure", "status", "good_streak", "evaluated_at", "no_data_since", "stale_after")


def _evaluated_rows(metric_ids) -> dict[int, _Health]:
    """As locked_health, as plain values."""
    return _created_where_missing(metric_ids, _locked_values)


def _locked_values(metric_ids) -> dict[int, _Health]:
    rows = (
        MetricHealth.objects.select_for_update()
        .filter(metric_id__in=metric_ids)
        .order_by("metric_id")
        .values_list("pk", "metric_id", "status", "good_streak", "recent")
    )
    return {row[1]: _Health(*row) for row in rows}


# No savepoint: as metrics.record_samples, which every caller runs just before.
@transaction.atomic(savepoint=False)
def evaluate_metrics(
    new_samples: dict[int, list[tuple[dt.datetime, float | None]]],
    *,
    metrics: dict[int, Metric] | None = None,
    now: dt.datetime | None = None,
) -> None:
    """Folds new samples into each metric's window, applies hysteresis, then updates components.

    `metrics` (with their probes loaded) saves reloading them when the caller has them.
    """
    if not new_samples:
        return
    now = now or timezone.now()
    rows = _evaluated_rows(new_samples)
    if metrics is None or not new_samples.keys() <= metrics.keys():
        metrics = Metric.objects.select_related("probe").in_bulk(new_samples)
    needed = settings.PROBE_RECOVERY_EVALUATIONS
    changed: dict[int, tuple[Metric, float | None, int, dt.datetime | None]] = {}
    for metric_id, row in sorted(rows.items()):
        metric = metrics[metric_id]
        row.recent = health.merge_recent(row.recent, new_samples[metric_id], window=metric.window)
        values = [value for _at, value in row.recent]
        figure = health.window_figure(metric, values)
        step = health.next_status(
            row.status, observed_status(metric, figure), good_streak=row.good_streak, needed=needed
        )
        if step.status != row.status:
            changed[metric.component_id] = (metric, figure, len(values), None)
        row.status, row.good_streak = step.status, step.good_streak
        row.figure = None if figure is None or math.isinf(figure) else float(figure)
        row.evaluated_at = now
        row.no_data_since = None
        latest = dt.datetime.fromisoformat(row.recent[-1][0])
        row.stale_after = health.stale_after(latest, readings.expected_interval(metric))
    update_rows(
        MetricHealth,
        EVALUATED,
        [
            (
                r.pk,
                r.recent,
                r.figure,
                r.status,
                r.good_streak,
                r.evaluated_at,
                r.no_data_since,
                r.stale_after,
            )
            for r in rows.values()
        ],
    )
    if changed:
        derive_automatic(changed, now=now)


def derive_automatic(
    changed: dict[int, tuple[Metric, float | None, int, dt.datetime | None]], *, now: dt.datetime
) -> None:
    """Derives the status of the automatic ones of the components whose metrics changed status;
    `changed` maps a component's id to (the metric, its figure, the samples it covers, when the
    change began or None for now).

    One query finds them, rather than three per change (the cause's status, the reason's
    component, the component) for a component that does not follow its metrics."""
    automatic = set(
        Component.objects.filter(pk__in=changed, status_mode=StatusMode.AUTOMATIC).values_list(
            "pk", flat=True
        )
    )
    for component_id, (metric, figure, count, since) in changed.items():
        if component_id in automatic:
            derive_component_status(
                component_id, cause=metric, figure=figure, count=count, now=now, since=since
            )


def in_maintenance(component: Component, *, now: dt.datetime) -> bool:
    """Published maintenance in progress on the component, or planned to be right now."""
    if component.status == ComponentStatus.UNDER_MAINTENANCE:
        return True
    active = Q(status__in=[IncidentStatus.IN_PROGRESS, IncidentStatus.VERIFYING]) | Q(
        status=IncidentStatus.SCHEDULED, scheduled_for__lte=now, scheduled_until__gte=now
    )
    return Incident.objects.published().maintenances().filter(active, components=component).exists()


def pinned_by_incident(component: Component) -> bool:
    return Incident.objects.published().incidents().open().filter(components=component).exists()


def derive_component_status(
    component_id: int,
    *,
    cause: Metric,
    figure: float | None,
    count: int,
    now: dt.datetime,
    since: dt.datetime | None = None,
) -> None:
    """Gives an automatic component the worst status of its metrics and firing alerts, dated
    `since` (the first tick that contributed to the change) when given."""
    cause_health = MetricHealth.objects.get(metric=cause)
    with translation.override(settings.LANGUAGE_CODE):
        reason = quorum.described(
            health.describe_figure(cause, figure, count, ComponentStatus(cause_health.status)),
            reporting=cause_health.regions_reporting,
            agreeing=cause_health.regions_agreeing,
        )
    status = settle_component(
        component_id, reason=reason, now=now, automation=_probe_automation(cause), at=since
    )
    if status is not None and status.counts_as_down:
        open_draft_incident(
            Component.objects.get(pk=component_id), status=status, evidence=reason, now=since or now
        )


def _probe_automation(metric: Metric) -> str:
    """Who moved the component, for the audit trail: the metric's probe by name when it has one."""
    probe = getattr(metric, "probe", None)
    return f"probe:{probe.name}"[:150] if probe is not None else AUTOMATION


def settle_component(
    component_id: int,
    *,
    reason: str,
    now: dt.datetime,
    automation: str,
    quiet_is_operational: bool = False,
    at: dt.datetime | None = None,
) -> ComponentStatus | None:
    """Moves an automatic component to the worst of what its fresh metrics and its firing alerts
    say; returns the new status, or None when nothing changed.

    With nothing to go by, a component stays as it is, unless `quiet_is_operational`: the last
    alert holding it down resolved, and no metric says otherwise.
    """
    component = Component.objects.get(pk=component_id)
    if component.status_mode != StatusMode.AUTOMATIC:
        return None
    if in_maintenance(component, now=now) or pinned_by_incident(component):
        return None
    statuses = [
        *MetricHealth.objects.filter(metric__component=component)
        .filter(Q(stale_after__isnull=True) | Q(stale_after__gte=now))
        .values_list("status", flat=True),
        *component.intake_alerts.filter(state=AlertState.FIRING)
        .exclude(status="")
        .values_list("status", flat=True),
    ]
    if not statuses and not quiet_is_operational:
        return None
    status = ComponentStatus.worst(statuses)
    if at is not None and component.status_changed_at is not None:
        at = max(at, component.status_changed_at)  # a backdated change never precedes the last one
    changed = observe_component_status(
        component, status=status, at=at or now, reason=reason, automation=automation
    )
    return status if changed else None


def open_draft_incident(
    component: Component,
    *,
    status: ComponentStatus,
    evidence: str,
    now,
    opened_by: str = "Opened automatically by probes.",
) -> Incident | None:
    """A draft (unpublished) incident for on-call to publish or discard; one open draft at a time."""
    existing = (
        Incident.objects.incidents()
        .open()
        .filter(published_at__isnull=True, created_by__isnull=True, components=component)
        .first()
    )
    if existing:
        return None
    with translation.override(settings.LANGUAGE_CODE):
        draft = DeclareIncident(
            title=f"{component}: {status.label}",
            language=settings.LANGUAGE_CODE,
            body=f"{opened_by}\n\n{evidence}",
            impact=Impact.CRITICAL if status == ComponentStatus.MAJOR_OUTAGE else Impact.MAJOR,
            component_statuses={component: status},
            started_at=now,
            publish=False,
        )
        return declare_incident(draft, actor=None)


def mark_stale_metrics(*, now: dt.datetime | None = None) -> list[int]:
    """Records once that a metric went without data for 3 intervals (an audit event each)."""
    now = now or timezone.now()
    stale = list(
        MetricHealth.objects.select_related("metric__component")
        .filter(no_data_since__isnull=True, stale_after__lt=now)
        .order_by("metric_id")
    )
    for row in stale:
        row.no_data_since = now
        record_event(
            actor=None,
            action="metric.no_data",
            subject_type=Subject.METRIC,
            subject_id=row.metric_id,
            subject_label=str(row.metric),
            after={"no_data_since": now.isoformat(), "last_sample_before": row.stale_after.isoformat()},
            automation=AUTOMATION,
        )
    update_many(MetricHealth, stale, ["no_data_since"])
    if stale:
        live_changed()
    return [row.metric_id for row in stale]


def group_samples(entries) -> dict[int, list[tuple[dt.datetime, float | None]]]:
    grouped: dict[int, list] = defaultdict(list)
    for entry in entries:
        grouped[entry.metric.pk].append((entry.at, entry.value))
    return grouped
