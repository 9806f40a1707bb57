"""Applying a document: the changes its plan lists, through the services the editor and the API
use (each validates and records its own object's trail), in one transaction, recorded once more
as one "configuration applied" event listing every change. No change, no write and no event."""

import datetime as dt
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from incidents.intake.rules import delete_alert_rule, save_alert_rule
from incidents.models import (
    AlertRule,
    Component,
    ComponentGroup,
    Metric,
    Probe,
    ProbeKind,
    ProbeRegion,
    Subject,
    UpdateTemplate,
)
from incidents.public.versions import content_changed
from incidents.services.audit import record_event
from incidents.services.components import save_component, save_group
from incidents.services.metrics import save_metric
from incidents.services.probes import delete_probe, issue_push_token, save_probe
from incidents.services.regions import forget_regions, save_region
from incidents.services.update_templates import delete_update_template, save_update_template

from .checking import Entry, check_document
from .document import DocumentError, Problem
from .planning import ADDED, CHANGED, Plan, plan_changes
from .sections import COMPONENT_FIELDS, GROUP_FIELDS, METRIC_FIELDS, PROBE_FIELDS, RULE_FIELDS, THRESHOLDS


@dataclass
class Applied:
    plan: Plan
    # Push tokens of the push probes created, by probe key: shown once, only their hash is kept.
    push_tokens: dict[str, str] = field(default_factory=dict)


def preview_configuration(document: object, *, environ: Mapping[str, str], prune: bool = False) -> Plan:
    """What applying `document` would change (DocumentError naming every mistake otherwise)."""
    return plan_changes(check_document(document, environ=environ), prune=prune)


@transaction.atomic
def apply_configuration(
    document: object, *, actor: AbstractBaseUser | None, environ: Mapping[str, str], prune: bool = False
) -> Applied:
    """Makes the database hold `document`'s configuration, or changes nothing and raises DocumentError."""
    plan = preview_configuration(document, environ=environ, prune=prune)
    applied = Applied(plan)
    if not plan.writes:
        return applied
    try:
        _write(applied, actor=actor)
    except ValidationError as error:
        # Checked already; a row changed meanwhile can still be refused by its service.
        raise DocumentError([Problem("", message) for message in error.messages]) from None
    record_event(
        actor=actor,
        action="configuration.applied",
        subject_type=Subject.CONFIGURATION,
        subject_id=_digest(document),
        subject_label="configuration",
        after={"changes": [change.as_dict() for change in plan.writes]},
    )
    return applied


def _digest(document: object) -> str:
    return hashlib.sha256(json.dumps(document, sort_keys=True, default=str).encode()).hexdigest()[:12]


def _write(applied: Applied, *, actor: AbstractBaseUser | None) -> None:
    plan = applied.plan
    for section, save in SAVES.items():
        for entry in plan.entries(section, ADDED) + plan.entries(section, CHANGED):
            stored = plan.checked.stored[section].get(entry.key)
            save(entry, stored.row if stored else None, actor=actor, applied=applied)
    for section, remove in REMOVALS.items():
        for stored in plan.removed(section):
            remove(stored.row, actor=actor)


def _save_region(entry: Entry, row: ProbeRegion | None, *, actor, applied) -> None:
    region = row or ProbeRegion()
    region.name, region.active = entry.values["name"], entry.values["active"]
    region.reference_url = entry.values["reference_url"]
    save_region(region, actor=actor)


def _save_group(entry: Entry, row: ComponentGroup | None, *, actor, applied) -> None:
    group = row or ComponentGroup()
    for name in GROUP_FIELDS:
        setattr(group, name, entry.values[name])
    save_group(group, actor=actor)


def _save_component(entry: Entry, row: Component | None, *, actor, applied) -> None:
    component = row or Component()
    values = entry.values
    for name in COMPONENT_FIELDS:
        if name not in ("start_date", "uptime_target"):  # typed below
            setattr(component, name, values[name])
    component.group = ComponentGroup.objects.get(slug=values["group"]) if values["group"] else None
    component.start_date = dt.date.fromisoformat(values["start_date"]) if values["start_date"] else None
    target = values["uptime_target"]
    component.uptime_target = Decimal(str(target)) if target is not None else None
    save_component(component, actor=actor)


def _save_metric(entry: Entry, row: Metric | None, *, actor, applied) -> None:
    metric = row or Metric()
    values = entry.values
    metric.component = Component.objects.get(slug=values["component"])
    for name in METRIC_FIELDS:
        setattr(metric, name, values[name])
    for status, name in THRESHOLDS.items():
        setattr(metric, name, values["thresholds"][status])
    save_metric(metric, actor=actor)


def _save_probe(entry: Entry, row: Probe | None, *, actor, applied) -> None:
    probe = row or Probe()
    values = entry.values
    component, metric = values["metric"].split("/", 1)
    probe.metric = Metric.objects.get(component__slug=component, slug=metric)
    for name in PROBE_FIELDS:
        setattr(probe, name, values[name])
    regions = list(ProbeRegion.objects.filter(name__in=values["regions"]))
    save_probe(probe, actor=actor, regions=regions)
    if row is None and probe.kind == ProbeKind.PUSH:
        applied.push_tokens[entry.key] = issue_push_token(probe, actor=actor)


def _save_template(entry: Entry, row: UpdateTemplate | None, *, actor, applied) -> None:
    template = row or UpdateTemplate()
    values = entry.values
    for name in ("name", "language", "kind", "status", "title", "body"):
        setattr(template, name, values[name])
    template.component_statuses = values["components"]
    save_update_template(template, actor=actor)


def _save_rule(entry: Entry, row: AlertRule | None, *, actor, applied) -> None:
    rule = row or AlertRule()
    values = entry.values
    rule.component = Component.objects.get(slug=values["component"])
    for name in RULE_FIELDS:
        setattr(rule, name, values[name])
    save_alert_rule(rule, actor=actor)


# In the order objects need each other: regions and groups before what names them.
SAVES = {
    "regions": _save_region,
    "groups": _save_group,
    "components": _save_component,
    "metrics": _save_metric,
    "probes": _save_probe,
    "update_templates": _save_template,
    "alert_rules": _save_rule,
}


def _delete(row, *, actor) -> None:
    """Groups, regions and components or metrics without history (planning refuses the others)."""
    row.delete()
    forget_regions()
    content_changed()


# The reverse: what names an object goes before it.
REMOVALS = {
    "alert_rules": delete_alert_rule,
    "update_templates": delete_update_template,
    "probes": delete_probe,
    "metrics": _delete,
    "components": _delete,
    "groups": _delete,
    "regions": _delete,
}
