"""The page-wide status indicator, computed from component states as Statuspage does."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from incidents.models import ComponentStatus


@dataclass(frozen=True)
class Indicator:
    value: str  # Statuspage's machine value: none, minor, major, critical, maintenance
    description: str  # Statuspage's English description, for API compatibility
    label: str  # The same, translated for our pages


NONE = Indicator("none", "All Systems Operational", _("All systems operational"))
MINOR = Indicator("minor", "Partially Degraded Service", _("Partially degraded service"))
MAJOR = Indicator("major", "Partial System Outage", _("Partial system outage"))
CRITICAL = Indicator("critical", "Major System Outage", _("Major system outage"))
MAINTENANCE = Indicator("maintenance", "Service Under Maintenance", _("Service under maintenance"))

# The status that decides the indicator when present, first match wins.
BY_PRECEDENCE = (
    (ComponentStatus.MAJOR_OUTAGE, CRITICAL),
    (ComponentStatus.PARTIAL_OUTAGE, MAJOR),
    (ComponentStatus.DEGRADED_PERFORMANCE, MINOR),
    (ComponentStatus.UNDER_MAINTENANCE, MAINTENANCE),
)


def page_indicator(statuses: Iterable[str]) -> Indicator:
    """The indicator for components in `statuses`: maintenance only when nothing is broken."""
    present = {ComponentStatus(s) for s in statuses}
    return next((indicator for status, indicator in BY_PRECEDENCE if status in present), NONE)
