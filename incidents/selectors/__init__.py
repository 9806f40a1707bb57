"""Reads shared by the pages, feeds and both APIs, one module per area."""

from .history import feed_updates, first_history_month, history, history_months, maintenance_windows
from .metrics import hourly_values, live_metrics, metric_series, metric_window_values, rollup_value
from .public import (
    GroupView,
    PageSummary,
    PostmortemView,
    component_choices,
    component_incidents,
    grouped_components,
    open_incidents,
    page_summary,
    page_updated_at,
    postmortem_for,
    public_component,
    public_incident,
    related_incidents,
)
from .statuspage import (
    MAINTENANCE_ACTIVE,
    MAINTENANCE_UPCOMING,
    recent_incidents,
    recent_maintenances,
    unresolved_incidents,
)
from .uptime import incidents_by_component, status_periods, uptime, uptime_by_month, uptime_days

__all__ = [
    "MAINTENANCE_ACTIVE",
    "MAINTENANCE_UPCOMING",
    "GroupView",
    "PageSummary",
    "PostmortemView",
    "component_choices",
    "component_incidents",
    "feed_updates",
    "first_history_month",
    "grouped_components",
    "history",
    "history_months",
    "hourly_values",
    "incidents_by_component",
    "live_metrics",
    "maintenance_windows",
    "metric_series",
    "metric_window_values",
    "open_incidents",
    "page_summary",
    "page_updated_at",
    "postmortem_for",
    "public_component",
    "public_incident",
    "related_incidents",
    "recent_incidents",
    "recent_maintenances",
    "rollup_value",
    "status_periods",
    "unresolved_incidents",
    "uptime",
    "uptime_by_month",
    "uptime_days",
]
