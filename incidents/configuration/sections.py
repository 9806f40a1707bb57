"""Each section of the document: how an object is written in it, its defaults, and its key.

An entry is written in full ("the export form"): what the file leaves out is its model's default,
so a file and the database compare field by field. Keys name an object in errors and changes and
match it with its row: a slug, a name, `component/metric` for a metric and for its probe.
"""

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.db import models

from incidents.models import (
    AlertRule,
    Component,
    ComponentGroup,
    Metric,
    Probe,
    ProbeRegion,
    UpdateTemplate,
)
from incidents.models.metrics import THRESHOLD_FIELDS
from incidents.translation import language_codes

# The thresholds as the document names them: by the status each stands for.
THRESHOLDS = {status.value: field for status, field in THRESHOLD_FIELDS.items()}
# The plain fields of each kind's entry, as the file and the API name them; references to other
# objects, credentials and thresholds are each written apart.
GROUP_FIELDS = ("slug", "name", "description", "position")
COMPONENT_FIELDS = (
    "slug",
    "name",
    "description",
    "position",
    "status_mode",
    "showcase",
    "only_show_if_degraded",
    "start_date",
    "uptime_target",
)
METRIC_FIELDS = (
    "slug",
    "name",
    "kind",
    "unit",
    "precision",
    "aggregation",
    "window",
    "expected_interval",
    "higher_is_worse",
    "position",
)
PROBE_FIELDS = (
    "name",
    "kind",
    "enabled",
    "url",
    "config",
    "interval",
    "timeout",
    "connect_timeout",
    "read_timeout",
)
RULE_FIELDS = ("name", "source", "matchers", "status", "open_incident", "position", "enabled")
FLOATS = {"uptime_target", "timeout", "connect_timeout", "read_timeout", *THRESHOLDS}


def texts(value: dict | None) -> dict:
    """Translations in the site's language order."""
    value = value or {}
    return {code: value[code] for code in language_codes() if code in value} | {
        code: text for code, text in value.items() if code not in language_codes()
    }


def metric_key(component: str, slug: str) -> str:
    return f"{component}/{slug}"


def group_entry(group: ComponentGroup) -> dict:
    return {
        "slug": group.slug,
        "name": texts(group.name),
        "description": texts(group.description),
        "position": group.position,
    }


def component_entry(component: Component) -> dict:
    target = component.uptime_target
    return {
        "slug": component.slug,
        "name": texts(component.name),
        "group": component.group.slug if component.group_id else None,
        "description": texts(component.description),
        "position": component.position,
        "status_mode": component.status_mode,
        "showcase": component.showcase,
        "only_show_if_degraded": component.only_show_if_degraded,
        "start_date": component.start_date.isoformat() if component.start_date else None,
        "uptime_target": float(Decimal(target)) if target is not None else None,
    }


def metric_entry(metric: Metric) -> dict:
    return {
        "component": metric.component.slug if metric.component_id else "",
        "slug": metric.slug,
        "name": texts(metric.name),
        "kind": metric.kind,
        "unit": metric.unit,
        "precision": metric.precision,
        "aggregation": metric.aggregation,
        "window": metric.window,
        "expected_interval": metric.expected_interval,
        "higher_is_worse": metric.higher_is_worse,
        "position": metric.position,
        "thresholds": {status: getattr(metric, field) for status, field in THRESHOLDS.items()},
    }


def probe_entry(probe: Probe) -> dict:
    """A probe with its credentials as stored: the caller replaces them (credentials.py)."""
    metric = metric_key(probe.metric.component.slug, probe.metric.slug) if probe.metric_id else ""
    return {
        "metric": metric,
        "name": probe.name,
        "kind": probe.kind,
        "enabled": probe.enabled,
        "url": probe.url,
        "config": probe.config,
        "interval": probe.interval,
        "timeout": probe.timeout,
        "connect_timeout": probe.connect_timeout,
        "read_timeout": probe.read_timeout,
        "regions": sorted(region.name for region in probe.regions.all()) if probe.pk else [],
    }


def region_entry(region: ProbeRegion) -> dict:
    return {"name": region.name, "active": region.active, "reference_url": region.reference_url}


def template_entry(template: UpdateTemplate) -> dict:
    return {
        "name": template.name,
        "language": template.language,
        "kind": template.kind,
        "status": template.status,
        "title": texts(template.title),
        "body": texts(template.body),
        "components": dict(sorted((template.component_statuses or {}).items())),
    }


def rule_entry(rule: AlertRule) -> dict:
    return {
        "name": rule.name,
        "source": rule.source,
        "matchers": list(rule.matchers),
        "component": rule.component.slug if rule.component_id else "",
        "status": rule.status,
        "open_incident": rule.open_incident,
        "position": rule.position,
        "enabled": rule.enabled,
    }


@dataclass(frozen=True)
class Section:
    name: str  # as in the document
    model: type[models.Model]
    entry: Callable[[models.Model], dict]
    key: Callable[[dict], str]
    # Rows as the export reads them (related rows loaded), in a stable order.
    rows: Callable[[], models.QuerySet]

    def defaults(self) -> dict:
        """An entry of a new row: what a file leaves out."""
        return self.entry(self.model())


def _template_key(entry: dict) -> str:
    return f"{entry.get('language')}/{entry.get('kind')}/{entry.get('name')}"


SECTIONS = {
    "regions": Section(
        "regions", ProbeRegion, region_entry, lambda e: str(e.get("name")), ProbeRegion.objects.all
    ),
    "groups": Section(
        "groups", ComponentGroup, group_entry, lambda e: str(e.get("slug")), ComponentGroup.objects.all
    ),
    "components": Section(
        "components",
        Component,
        component_entry,
        lambda e: str(e.get("slug")),
        lambda: Component.objects.select_related("group"),
    ),
    "metrics": Section(
        "metrics",
        Metric,
        metric_entry,
        lambda e: metric_key(str(e.get("component")), str(e.get("slug"))),
        lambda: Metric.objects.select_related("component"),
    ),
    "probes": Section(
        "probes",
        Probe,
        probe_entry,
        lambda e: str(e.get("metric")),
        lambda: Probe.objects.select_related("metric__component").prefetch_related("regions"),
    ),
    "update_templates": Section(
        "update_templates", UpdateTemplate, template_entry, _template_key, UpdateTemplate.objects.all
    ),
    "alert_rules": Section(
        "alert_rules",
        AlertRule,
        rule_entry,
        lambda e: str(e.get("name")),
        lambda: AlertRule.objects.select_related("component").order_by("name", "position", "pk"),
    ),
}


def _number(value: object) -> object:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    return value


def normalized(section: Section, entry: dict) -> dict:
    """`entry` in the export form: the defaults where it is silent, numbers as the export writes them."""
    full = {**section.defaults(), **entry}
    if isinstance(full.get("thresholds"), dict):
        full["thresholds"] = {**section.defaults()["thresholds"], **full["thresholds"]}
        full["thresholds"] = {key: _number(value) for key, value in full["thresholds"].items()}
    for key in FLOATS & full.keys():
        full[key] = _number(full[key])
    for key in ("name", "description", "title", "body"):
        if isinstance(full.get(key), dict):
            full[key] = texts(full[key])
    if section.name == "update_templates" and isinstance(full.get("components"), dict):
        full["components"] = dict(sorted(full["components"].items()))
    if section.name == "probes" and isinstance(full.get("regions"), list):
        full["regions"] = sorted(full["regions"], key=str)
    return full
