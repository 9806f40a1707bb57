"""Receiving alerts: each kept by its source's fingerprint, matched to a rule, and turned into a
component status (through the same health service as probe results) and a draft incident.

A repeated notification of an alert already known in the same state changes nothing but its
receipt count, so Alertmanager's repeats and regrouping never open a second incident.
"""

import datetime as dt
from collections import Counter
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from incidents.intake.matchers import all_hold, parse_matchers
from incidents.models import AlertRule, AlertSource, AlertState, Component, ComponentStatus, IntakeAlert
from incidents.telemetry import instruments

from .health import open_draft_incident, settle_component


@dataclass(frozen=True)
class ReceivedAlert:
    fingerprint: str
    state: AlertState
    labels: dict[str, str]
    annotations: dict[str, str]
    starts_at: dt.datetime
    ends_at: dt.datetime | None = None
    generator_url: str = ""

    @property
    def name(self) -> str:
        return self.labels.get("alertname", "")


@dataclass
class IntakeReport:
    """How many alerts of a payload came out how: firing, resolved, repeated, unknown."""

    outcomes: Counter = field(default_factory=Counter)

    def as_dict(self) -> dict[str, int]:
        return {name: self.outcomes[name] for name in ("firing", "resolved", "repeated", "unknown")}


def _rules_for(source: AlertSource) -> list[tuple[AlertRule, list]]:
    rules = AlertRule.objects.filter(enabled=True).select_related("component").order_by("position", "id")
    return [(rule, parse_matchers(rule.matchers)) for rule in rules if rule.source in ("", source)]


def _first_rule(rules, labels: dict[str, str]) -> AlertRule | None:
    return next((rule for rule, matchers in rules if all_hold(matchers, labels)), None)


def _reason(alert: ReceivedAlert, rule: AlertRule | None, source: AlertSource) -> str:
    summary = alert.annotations.get("summary") or alert.annotations.get("description") or ""
    said = f"{source.label} alert {alert.name or alert.fingerprint} {alert.state}"
    if rule is not None:
        said += f" (rule “{rule.name}”)"
    return f"{said}: {summary}" if summary else said


@transaction.atomic
def receive_alerts(source: AlertSource, alerts: list[ReceivedAlert], *, now=None) -> IntakeReport:
    now = now or timezone.now()
    rules = _rules_for(source)
    report = IntakeReport()
    touched: dict[int, str] = {}  # component id -> reason of the latest change
    firing: list[tuple[IntakeAlert, AlertRule, str]] = []
    latest = {alert.fingerprint: alert for alert in alerts}  # one payload may repeat an alert
    for alert in latest.values():
        rule = _first_rule(rules, alert.labels)
        stored, outcome, held_before = _store(source, alert, rule, now=now)
        report.outcomes[outcome] += 1
        instruments.INTAKE_ALERTS.labels(source=source, outcome=outcome).inc()
        if outcome != "repeated":
            reason = _reason(alert, rule, source)
            for component_id in {stored.component_id, held_before} - {None}:
                touched[component_id] = reason
            if outcome == "firing" and rule is not None and rule.open_incident:
                firing.append((stored, rule, reason))
    for component_id, reason in touched.items():
        settle_component(
            component_id, reason=reason, now=now, automation=source.value, quiet_is_operational=True
        )
    for stored, rule, reason in firing:
        _open_incident(stored, rule, reason, now=now)
    return report


def _store(
    source, alert: ReceivedAlert, rule: AlertRule | None, *, now
) -> tuple[IntakeAlert, str, int | None]:
    """Keeps the alert; returns it, its outcome and the component it held before (if any)."""
    values = {
        "name": alert.name[:200],
        "state": alert.state,
        "labels": alert.labels,
        "annotations": alert.annotations,
        "generator_url": alert.generator_url[:500],
        "starts_at": alert.starts_at,
        "ends_at": alert.ends_at,
        "rule": rule,
        # Without a rule (deleted, or no longer matching) an alert keeps holding the component
        # it held, at the status it held it at, until it resolves.
        **({"component": rule.component, "status": rule.status} if rule else {}),
        "last_received_at": now,
    }
    stored = (
        IntakeAlert.objects.select_for_update().filter(source=source, fingerprint=alert.fingerprint).first()
    )
    if stored is None:
        stored = IntakeAlert.objects.create(
            source=source, fingerprint=alert.fingerprint, first_received_at=now, **values
        )
        return stored, _outcome(alert, rule, changed=True), None
    # A rule edited since the last notification (another component or status) is a change too.
    held = (stored.state, stored.rule_id, stored.component_id, stored.status)
    held_before = stored.component_id
    for name, value in values.items():
        setattr(stored, name, value)
    stored.times_received += 1
    stored.save()
    changed = held != (stored.state, stored.rule_id, stored.component_id, stored.status)
    return stored, _outcome(alert, rule, changed=changed), held_before


def _outcome(alert: ReceivedAlert, rule: AlertRule | None, *, changed: bool) -> str:
    if not changed:
        return "repeated"
    if rule is None:
        return "unknown"
    return str(alert.state)


def _open_incident(stored: IntakeAlert, rule: AlertRule, reason: str, *, now) -> None:
    component = Component.objects.get(pk=rule.component_id)
    incident = open_draft_incident(
        component,
        status=ComponentStatus(rule.status),
        evidence=reason,
        now=now,
        opened_by="Opened automatically by an alert.",
    )
    if incident is not None:
        IntakeAlert.objects.filter(pk=stored.pk).update(incident=incident)
