"""The editor's status board: every component with its live figures, what is open now, overdue
action items and the latest configuration changes, for a responder deciding what to do."""

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.utils import timezone

from incidents import formatting, selectors
from incidents.lifecycle.resolution import holds_on
from incidents.models import (
    CONFIGURATION_SUBJECTS,
    ActionItem,
    ActionItemState,
    AuditEvent,
    ComponentStatus,
    Incident,
    IncidentStatus,
    IncidentUpdate,
)
from incidents.models.postmortems import status_page_today
from incidents.public.presentation import MetricRow, metric_row, shown, threshold_lines
from incidents.translation import Shown

RECENT_CONFIG_CHANGES = 15
OVERDUE_SHOWN = 10
REFRESH_SECONDS = 30  # how often the open board asks for a fresh copy (static/js/refresh.js)


@dataclass
class BoardMetric:
    row: MetricRow
    thresholds: str  # "Degraded performance 500 ms, Major outage 2 s", or "" without thresholds


@dataclass
class BoardComponent:
    component_pk: int
    name: Shown
    status: ComponentStatus
    automatic: bool
    metrics: list[BoardMetric] = field(default_factory=list)
    held_by: str = ""  # "held by: …": what keeps a component out of operational, if anything does


@dataclass
class BoardGroup:
    name: str  # "" for the components outside any group
    status: ComponentStatus
    components: list[BoardComponent]


@dataclass
class OpenEvent:
    incident: Incident
    last_update: IncidentUpdate | None
    open_for: str  # "2 hours, 5 minutes"
    last_update_age: str  # "12 minutes ago"


def board_groups(*, language: str, now: dt.datetime) -> list[BoardGroup]:
    """Every component (hidden ones too) in its group, with each metric's figure and 24 h line."""
    views = selectors.grouped_components()
    metrics = [m for view in views for c in view.components for m in c.metrics.all()]
    hourly = selectors.hourly_values(metrics)
    hours = [formatting.format_clock_time(start, language) for start in selectors.hour_starts()]
    down = [c for view in views for c in view.components if c.status != ComponentStatus.OPERATIONAL]
    held_by = {resting.component.pk: resting.reasons(language) for resting in holds_on(down, now=now)}
    groups = []
    for view in views:
        components = [
            BoardComponent(
                component_pk=component.pk,
                name=shown(component.name, component, language=language),
                status=ComponentStatus(component.status),
                automatic=component.status_mode == "automatic",
                metrics=[
                    BoardMetric(
                        row=metric_row(
                            metric, language=language, hourly=hourly.get(metric.pk), hours=hours, now=now
                        ),
                        thresholds=", ".join(line.label for line in threshold_lines(metric, language)),
                    )
                    for metric in component.metrics.all()
                ],
                held_by=held_by.get(component.pk, ""),
            )
            for component in view.components
        ]
        name = shown(view.group.name, view.group, language=language).text if view.group else ""
        groups.append(BoardGroup(name=name, status=view.status, components=components))
    return groups


def open_events(*, language: str, now: dt.datetime) -> tuple[list[OpenEvent], list[OpenEvent]]:
    """Open incidents (drafts included) and maintenance in progress, newest first."""
    incidents = (
        Incident.objects.open()
        .exclude(status=IncidentStatus.SCHEDULED)
        .prefetch_related(Prefetch("updates", queryset=IncidentUpdate.objects.timeline()))
        .order_by("-started_at")
    )
    events = []
    for incident in incidents:
        last = next(iter(incident.updates.all()), None)
        events.append(
            OpenEvent(
                incident=incident,
                last_update=last,
                open_for=formatting.format_duration(max(now - incident.started_at, dt.timedelta()), language),
                last_update_age=formatting.format_age(now - last.display_at, language) if last else "",
            )
        )
    return (
        [e for e in events if not e.incident.is_maintenance],
        [e for e in events if e.incident.is_maintenance],
    )


def overdue_action_items(*, limit: int = OVERDUE_SHOWN) -> tuple[list[ActionItem], int]:
    """The open action items past their due date, earliest first, and how many there are."""
    today = status_page_today()
    items = ActionItem.objects.filter(
        state__in=[ActionItemState.OPEN, ActionItemState.IN_PROGRESS], due_date__isnull=False
    ).select_related("owner", "postmortem__incident")
    overdue = sorted((item for item in items if item.is_overdue(today)), key=lambda item: item.due_by)
    return overdue[:limit], len(overdue)


def board_context(*, language: str) -> dict:
    now = timezone.now()
    incidents, maintenance = open_events(language=language, now=now)
    overdue, overdue_count = overdue_action_items()
    return {
        "refresh_seconds": REFRESH_SECONDS,
        "groups": board_groups(language=language, now=now),
        "open_incidents": incidents,
        "maintenance_in_progress": maintenance,
        "scheduled": Incident.objects.maintenances()
        .filter(status=IncidentStatus.SCHEDULED)
        .order_by("scheduled_for"),
        "overdue_items": overdue,
        "overdue_count": overdue_count,
        "config_changes": AuditEvent.objects.filter(subject_type__in=CONFIGURATION_SUBJECTS).select_related(
            "actor"
        )[:RECENT_CONFIG_CHANGES],
    }
