"""Reads shared by the pages, feeds and both APIs, one module per area."""

from .history import events_since, feed_updates, first_history_month, history, maintenance_windows
from .metrics import hour_starts, hourly_values, metric_series, metric_window_values
from .public import (
    GroupView,
    component_choices,
    component_incidents,
    current_indicator,
    grouped_components,
    overview_summary,
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
from .uptime import (
    first_status_month,
    first_status_times,
    status_periods,
    uptime,
    uptime_by_month,
    uptime_days,
)

__all__ = [
    "MAINTENANCE_ACTIVE",
    "MAINTENANCE_UPCOMING",
    "GroupView",
    "component_choices",
    "component_incidents",
    "current_indicator",
    "feed_updates",
    "first_history_month",
    "first_status_month",
    "first_status_times",
    "grouped_components",
    "events_since",
    "history",
    "hour_starts",
    "hourly_values",
    "maintenance_windows",
    "metric_series",
    "metric_window_values",
    "overview_summary",
    "page_summary",
    "page_updated_at",
    "postmortem_for",
    "public_component",
    "public_incident",
    "related_incidents",
    "recent_incidents",
    "recent_maintenances",
    "status_periods",
    "unresolved_incidents",
    "uptime",
    "uptime_by_month",
    "uptime_days",
]
