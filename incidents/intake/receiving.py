"""Receiving alerts: each kept by its source's fingerprint, matched to a rule, and turned into a
component status (through the same health service as probe results) and a draft incident.

A repeated notification of an alert already known in the same state changes nothing but its
receipt count, so Alertmanager's repeats and regrouping never open a second incident. Alerts are
ordered by their own `startsAt` and `endsAt`, not by when they arrive: a notification older than
what is kept (delayed, or replayed) is stale and changes nothing.

Rules are matched before the write transaction opens, so no matcher ever runs while rows are
locked.
"""

import datetime as dt
import logging
from collections import Counter
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from incidents.models import AlertRule, AlertSource, AlertState, Component, ComponentStatus, IntakeAlert
from incidents.rendering import quoted_as_written
from incidents.services.health import open_draft_incident, settle_component
from incidents.telemetry import instruments

from .matchers import Matcher, all_hold, parse_matchers

logger = logging.getLogger(__name__)


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
    """How many alerts of a payload came out how: firing, resolved, repeated, unknown; a stale
    alert (older than what is kept) changed nothing, so it is reported as repeated."""

    outcomes: Counter = field(default_factory=Counter)

    def as_dict(self) -> dict[str, int]:
        counts = {name: self.outcomes[name] for name in ("firing", "resolved", "repeated", "unknown")}
        counts["repeated"] += self.outcomes["stale"]
        return counts


def _rules_for(source: AlertSource) -> list[tuple[AlertRule, list[Matcher]]]:
    rules = AlertRule.objects.filter(enabled=True, source__in=["", source]).order_by("position", "id")
    usable = []
    for rule in rules.select_related("component"):
        try:
            usable.append((rule, parse_matchers(rule.matchers)))
        except ValidationError:
            # Saved before regular expressions were compiled with RE2; saving it again says why.
            logger.warning("Alert rule %s has matchers RE2 cannot run; it takes no alerts.", rule.public_id)
    return usable


def _first_rule(rules, labels: dict[str, str]) -> AlertRule | None:
    return next((rule for rule, matchers in rules if all_hold(matchers, labels)), None)


def _reason(alert: ReceivedAlert, rule: AlertRule | None, source: AlertSource) -> str:
    summary = alert.annotations.get("summary") or alert.annotations.get("description") or ""
    said = f"{source.label} alert {alert.name or alert.fingerprint} {alert.state}"
    if rule is not None:
        said += f" (rule “{rule.name}”)"
    return f"{said}: {summary}" if summary else said


def _evidence(alert: ReceivedAlert, rule: AlertRule, source: AlertSource) -> str:
    """What the draft incident says: our words, then what the sender wrote, quoted as plain
    text so that no link, image, HTML or mention of the sender's reaches the draft."""
    summary = alert.annotations.get("summary") or alert.annotations.get("description") or ""
    sent = alert.name or alert.fingerprint
    return f"{source.label} alert, rule “{rule.name}”:\n\n" + quoted_as_written(
        f"{sent} {alert.state}: {summary}" if summary else f"{sent} {alert.state}"
    )


def _latest_of_each(alerts: list[ReceivedAlert]) -> list[ReceivedAlert]:
    """One alert per fingerprint (a payload may repeat one): the latest by the alert's own
    times, a resolution after the firing it ends."""
    ordered = sorted(alerts, key=lambda alert: (alert.starts_at, alert.state == AlertState.RESOLVED))
    return list({alert.fingerprint: alert for alert in ordered}.values())


def receive_alerts(source: AlertSource, alerts: list[ReceivedAlert], *, now=None) -> IntakeReport:
    """Keeps each alert and moves the components and drafts its rule says."""
    now = now or timezone.now()
    rules = _rules_for(source)
    matched = [(alert, _first_rule(rules, alert.labels)) for alert in _latest_of_each(alerts)]
    return _record(source, matched, now=now)


@transaction.atomic
def _record(
    source: AlertSource, matched: list[tuple[ReceivedAlert, AlertRule | None]], *, now
) -> IntakeReport:
    # As the rules are now: one deleted or disabled since it was matched takes nothing.
    live = AlertRule.objects.filter(enabled=True).in_bulk({rule.pk for _alert, rule in matched if rule})
    report = IntakeReport()
    touched: dict[int, str] = {}  # component id -> reason of the latest change
    firing: list[tuple[IntakeAlert, AlertRule, str]] = []
    for alert, matched_rule in matched:
        rule = live.get(matched_rule.pk) if matched_rule is not None else None
        stored, outcome, held_before = _store(source, alert, rule, now=now)
        report.outcomes[outcome] += 1
        instruments.INTAKE_ALERTS.labels(source=source, outcome=outcome).inc()
        if outcome in ("repeated", "stale"):
            continue
        reason = _reason(alert, rule, source)
        for component_id in {stored.component_id, held_before} - {None}:
            touched[component_id] = reason
        if outcome == "firing" and rule is not None and rule.open_incident:
            firing.append((stored, rule, _evidence(alert, rule, source)))
    for component_id, reason in touched.items():
        settle_component(
            component_id, reason=reason, now=now, automation=source.value, quiet_is_operational=True
        )
    for stored, rule, evidence in firing:
        _open_incident(stored, rule, evidence, now=now)
    return report


def _is_stale(stored: IntakeAlert, alert: ReceivedAlert) -> bool:
    """Older than what is kept: delayed or replayed after a later notification."""
    if alert.state == AlertState.FIRING:
        # After a resolution, only a firing that started once it had ended is a new episode.
        return stored.state == AlertState.RESOLVED and alert.starts_at <= (stored.ends_at or stored.starts_at)
    ended = alert.ends_at or alert.starts_at
    if stored.state == AlertState.FIRING:
        return ended < stored.starts_at  # the end of an earlier episode
    return ended < (stored.ends_at or stored.starts_at)


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
    if stored is not None and _is_stale(stored, alert):
        return stored, "stale", None
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


def _open_incident(stored: IntakeAlert, rule: AlertRule, evidence: str, *, now) -> None:
    component = Component.objects.get(pk=rule.component_id)
    incident = open_draft_incident(
        component,
        status=ComponentStatus(rule.status),
        evidence=evidence,
        now=now,
        opened_by="Opened automatically by an alert.",
    )
    if incident is not None:
        IntakeAlert.objects.filter(pk=stored.pk).update(incident=incident)
