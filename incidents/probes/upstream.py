"""Upstream status page: mirror a vendor's Statuspage-format summary.json.

Config: {"component": "<component id or name>"} for one component, or {} for the page's
overall indicator. The sample is the status's severity (as in incidents.models.components),
and `status_for_value` turns it back into a status, whatever the metric's thresholds.
"""

import aiohttp
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import ComponentStatus, RunState
from incidents.models.components import SEVERITY
from incidents.validation.json_bodies import loads_bounded

from . import http
from .base import Measurement, RunSpec, known_settings, validate_target_url

KNOWN = {"component"}
INDICATOR_STATUS = {
    "none": ComponentStatus.OPERATIONAL,
    "minor": ComponentStatus.DEGRADED_PERFORMANCE,
    "major": ComponentStatus.PARTIAL_OUTAGE,
    "critical": ComponentStatus.MAJOR_OUTAGE,
    "maintenance": ComponentStatus.UNDER_MAINTENANCE,
}
BY_SEVERITY = {severity: status for status, severity in SEVERITY.items()}


def validate(probe) -> None:
    validate_target_url(probe.url)
    config = known_settings(probe.config, KNOWN)
    if not isinstance(config.get("component", ""), str):
        raise ValidationError({"config": _("The component must be its id or name.")})


def status_in_summary(summary: dict, component: str) -> ComponentStatus:
    if not component:
        return INDICATOR_STATUS[summary["status"]["indicator"]]
    for entry in summary.get("components", []):
        if component in (entry.get("id"), entry.get("name")):
            return ComponentStatus(entry["status"])
    raise LookupError(component)


def status_for_value(value: float) -> ComponentStatus:
    return BY_SEVERITY.get(round(value), ComponentStatus.MAJOR_OUTAGE)


async def measure(spec: RunSpec, session: aiohttp.ClientSession) -> Measurement:
    status, body = await http.fetch(spec, session)
    if not 200 <= status < 300:
        return Measurement(RunState.FAILED, None, f"HTTP {status}")
    try:
        mirrored = status_in_summary(
            loads_bounded(body, storable_text=False), spec.config.get("component", "")
        )
    except LookupError:
        return Measurement(RunState.FAILED, None, "component not in the summary")
    except (ValueError, KeyError, TypeError):
        return Measurement(RunState.FAILED, None, "not a Statuspage summary")
    return Measurement(RunState.OK, float(SEVERITY[mirrored]), mirrored.value)
