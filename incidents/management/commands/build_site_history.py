"""Builds a synthetic history for measuring the public site (`make bench-site`).

Rows are written with bulk_create, not through the services: the goal is a realistic
shape (groups, components, years of incidents with their updates, status periods, 90 days of
rollups, postmortems) in seconds, not a replay of every write. Everything it creates has a
slug starting with "bench-", and it refuses to run twice on the same database.

The two SHAPES show the same page: the same groups, components and metrics, and incidents
equally dense, each drawn from its rank counted from the newest, so the newest incidents (what
the pages and feeds list) are the same in both. They differ only in the history behind them.
"""

import datetime as dt
import inspect
import random

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from incidents.metrics import rollups
from incidents.models import (
    ActionItem,
    Component,
    ComponentGroup,
    ComponentStatus,
    DuePrecision,
    Impact,
    Incident,
    IncidentKind,
    IncidentStatus,
    IncidentUpdate,
    Metric,
    Postmortem,
    PostmortemState,
    Resolution,
    Rollup,
    StatusPeriod,
)
from incidents.planner_statistics import refresh_statistics
from incidents.rendering import rendered_texts
from incidents.services.uptime_months import recount_uptime_months

INCIDENT_STEPS = (
    IncidentStatus.INVESTIGATING,
    IncidentStatus.IDENTIFIED,
    IncidentStatus.MONITORING,
    IncidentStatus.RESOLVED,
)
MAINTENANCE_STEPS = (
    IncidentStatus.SCHEDULED,
    IncidentStatus.IN_PROGRESS,
    IncidentStatus.VERIFYING,
    IncidentStatus.COMPLETED,
)
OUTAGES = (ComponentStatus.DEGRADED_PERFORMANCE, ComponentStatus.PARTIAL_OUTAGE, ComponentStatus.MAJOR_OUTAGE)
BODY = (
    "We are looking into **elevated error rates** on {name}. Requests may fail or be slow.\n\n"
    "- Affected: API calls and webhooks\n- Next update within 30 minutes\n\n"
    "See [our runbook](https://example.com/runbook) for details."
)


# Samples in a bucket, and its minimum, maximum and p95 as shares of its mean.
SPREAD = {Resolution.HOUR: (60, 0.8, 1.5, 1.2), Resolution.DAY: (1440, 0.5, 3, 1.3)}
SHAPES = {
    "small": {"incidents": 480, "history_days": 365, "rollup_days": 90},
    "large": {"incidents": 4800, "history_days": 3650, "rollup_days": 400},
}


def _bulk(model, rows, batch=2000):
    return model.objects.bulk_create(rows, batch_size=batch)


def _rollup(metric: Metric, resolution: Resolution, bucket_start: dt.datetime, value: float) -> Rollup:
    count, low, high, p95 = SPREAD[resolution]
    return Rollup(
        metric=metric,
        resolution=resolution,
        bucket_start=bucket_start,
        count=count,
        minimum=value * low,
        maximum=value * high,
        total=value * count,
        p95=value * p95,
        sketch=rollups.add({}, value),
    )


@transaction.atomic
def build_history(
    *,
    groups: int = 3,
    components: int = 12,
    incidents: int = 4800,
    updates_per_incident: int = 4,
    metrics: int = 12,
    rollup_days: int = 400,
    history_days: int = 3650,
    seed: int = 3,
) -> dict[str, int]:
    """Creates the rows and returns how many of each it wrote."""
    if ComponentGroup.objects.filter(slug__startswith="bench-").exists():
        raise CommandError("This database already holds a bench history.")
    rng = random.Random(seed)
    now = timezone.now().replace(microsecond=0)
    origin = now - dt.timedelta(days=history_days + 5)

    group_rows = _bulk(
        ComponentGroup,
        [
            ComponentGroup(
                slug=f"bench-group-{g}", name={"en": f"Group {g}", "ru": f"Группа {g}"}, position=g
            )
            for g in range(groups)
        ],
    )
    component_rows = _bulk(
        Component,
        [
            Component(
                slug=f"bench-component-{c}",
                group=group_rows[c % groups],
                name={"en": f"Component {c}", "nb": f"Komponent {c}"},
                description={"en": f"Service number **{c}**."},
                position=c,
                created_at=origin,
                status_changed_at=origin,
            )
            for c in range(components)
        ],
    )

    metric_rows = _bulk(
        Metric,
        [
            Metric(
                component=component_rows[m % components],
                slug=f"bench-latency-{m}",
                name={"en": f"Latency {m}"},
                unit="ms",
                degraded_threshold=400,
                partial_outage_threshold=1000,
                major_outage_threshold=3000,
                latest_value=120.0 + m,
                latest_at=now - dt.timedelta(seconds=30),
            )
            for m in range(metrics)
        ],
    )
    rollup_rows = []
    hour0 = now.replace(minute=0, second=0) - dt.timedelta(days=rollup_days)
    for metric in metric_rows:
        for h in range(rollup_days * 24 + 1):
            value = 100 + 40 * rng.random() + (300 if rng.random() < 0.01 else 0)
            rollup_rows.append(_rollup(metric, Resolution.HOUR, hour0 + dt.timedelta(hours=h), value))
        day0 = hour0.replace(hour=0)
        for d in range(rollup_days + 1):
            value = 110 + 20 * rng.random()
            rollup_rows.append(_rollup(metric, Resolution.DAY, day0 + dt.timedelta(days=d), value))
    _bulk(Rollup, rollup_rows, batch=5000)

    # Incidents spread evenly over the history, newest ending an hour ago; the last one stays open.
    spacing = dt.timedelta(days=history_days) / max(incidents, 1)
    incident_rows, links, update_rows = [], [], []
    for rank in reversed(range(incidents)):  # 0 for the newest
        drawn = random.Random(seed * 1_000_003 + rank)
        started = now - spacing * (rank + 1)
        maintenance = rank % 10 == 9
        steps = MAINTENANCE_STEPS if maintenance else INCIDENT_STEPS
        duration = dt.timedelta(minutes=drawn.randint(20, 240))
        is_open = rank == 0
        incident_rows.append(
            Incident(
                slug=f"bench-incident-{rank}",
                kind=IncidentKind.MAINTENANCE if maintenance else IncidentKind.INCIDENT,
                title={"en": f"Elevated errors #{rank}", "ru": f"Повышенные ошибки #{rank}"},
                impact=Impact.NONE
                if maintenance
                else drawn.choice([Impact.MINOR, Impact.MAJOR, Impact.CRITICAL]),
                status=steps[0] if is_open else steps[-1],
                started_at=started,
                resolved_at=None if is_open else started + duration,
                scheduled_for=started if maintenance else None,
                scheduled_until=started + duration if maintenance else None,
                published_at=started,
                created_at=started,
                updated_at=started + duration,
            )
        )
    # And one maintenance window planned for tomorrow, as a real page usually has.
    incident_rows.append(
        Incident(
            slug="bench-maintenance-upcoming",
            kind=IncidentKind.MAINTENANCE,
            title={"en": "Planned database upgrade"},
            impact=Impact.NONE,
            status=IncidentStatus.SCHEDULED,
            started_at=now + dt.timedelta(days=1),
            scheduled_for=now + dt.timedelta(days=1),
            scheduled_until=now + dt.timedelta(days=1, hours=2),
            published_at=now,
            created_at=now,
            updated_at=now,
        )
    )
    incident_rows = _bulk(Incident, incident_rows)
    through = Incident.components.through
    by_component: dict[int, list[Incident]] = {}
    for i, incident in enumerate(incident_rows):
        rank = len(incident_rows) - 1 - i
        drawn = random.Random(seed * 1_000_003 + rank)
        chosen = drawn.sample(component_rows, k=min(1 + (rank % 3 == 0), len(component_rows)))
        for component in chosen:
            links.append(through(incident_id=incident.pk, component_id=component.pk))
            by_component.setdefault(component.pk, []).append(incident)
        steps = MAINTENANCE_STEPS if incident.kind == IncidentKind.MAINTENANCE else INCIDENT_STEPS
        count = 1 if incident.resolved_at is None else updates_per_incident
        end = incident.resolved_at or incident.started_at
        body = {"en": BODY.format(name=f"component {rank}"), "ru": "Мы **разбираемся**."}
        body_html = rendered_texts(body)  # as the services store it
        for n in range(count):
            at = min(incident.started_at + (end - incident.started_at) * n / max(count - 1, 1), now)
            update_rows.append(
                IncidentUpdate(
                    incident=incident,
                    status=steps[min(n, len(steps) - 1)] if n < count - 1 or count == 1 else steps[-1],
                    body=body,
                    body_html=body_html,
                    display_at=at,
                    created_at=at,
                    updated_at=at,
                )
            )
    _bulk(through, links)
    _bulk(IncidentUpdate, update_rows, batch=5000)

    period_rows = []
    for component in component_rows:
        cursor, status = origin, ComponentStatus.OPERATIONAL
        for incident in sorted(by_component.get(component.pk, []), key=lambda x: x.started_at):
            if incident.started_at <= cursor or incident.started_at > now:
                continue
            period_rows.append(
                StatusPeriod(
                    component=component, status=status, started_at=cursor, ended_at=incident.started_at
                )
            )
            bad = (
                ComponentStatus.UNDER_MAINTENANCE
                if incident.kind == IncidentKind.MAINTENANCE
                else random.Random(f"{seed}:{incident.slug}").choice(OUTAGES)
            )
            if incident.resolved_at is None:
                cursor, status = incident.started_at, bad
                break
            period_rows.append(
                StatusPeriod(
                    component=component,
                    status=bad,
                    started_at=incident.started_at,
                    ended_at=incident.resolved_at,
                )
            )
            cursor, status = incident.resolved_at, ComponentStatus.OPERATIONAL
        period_rows.append(StatusPeriod(component=component, status=status, started_at=cursor, ended_at=None))
        if status != ComponentStatus.OPERATIONAL:
            Component.objects.filter(pk=component.pk).update(status=status, status_changed_at=cursor)
    _bulk(StatusPeriod, period_rows, batch=5000)
    month_rows = recount_uptime_months(component_rows)

    postmortems = _bulk(
        Postmortem,
        [
            Postmortem(
                incident=incident,
                state=PostmortemState.PUBLISHED,
                summary={"en": "A *config change* removed capacity."},
                root_cause={"en": "The rollout skipped the canary."},
                what_we_will_change={"en": "Canary every rollout."},
                published_at=incident.resolved_at,
            )
            for incident in incident_rows[-1::-10]
            if incident.resolved_at and incident.kind == IncidentKind.INCIDENT
        ],
    )
    _bulk(
        ActionItem,
        [
            ActionItem(
                postmortem=postmortem,
                title={"en": f"Follow-up {n}"},
                owner_name="Platform team",
                due_date=dt.date(2026, 1, 1),
                due_precision=DuePrecision.QUARTER,
                position=n,
            )
            for postmortem in postmortems
            for n in range(3)
        ],
    )
    refresh_statistics()  # after a bulk load, as a DBA would
    return {
        "groups": len(group_rows),
        "components": len(component_rows),
        "metrics": len(metric_rows),
        "rollups": len(rollup_rows),
        "incidents": len(incident_rows),
        "updates": len(update_rows),
        "status_periods": len(period_rows),
        "uptime_months": month_rows,
        "postmortems": len(postmortems),
    }


OPTIONS = [name for name in inspect.signature(build_history).parameters if name != "seed"]


class Command(BaseCommand):
    help = "Builds a synthetic history for measuring the public site (bench-site)."

    def add_arguments(self, parser):
        parser.add_argument("--shape", choices=sorted(SHAPES), default="large")
        for name in OPTIONS:
            parser.add_argument(f"--{name.replace('_', '-')}", type=int, help="overrides the shape")

    def handle(self, *args, **options):
        chosen = {**SHAPES[options["shape"]], **{k: options[k] for k in OPTIONS if options[k] is not None}}
        counts = build_history(**chosen)
        self.stdout.write(" ".join(f"{name}={count}" for name, count in counts.items()))
