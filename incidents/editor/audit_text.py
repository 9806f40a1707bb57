"""The audit trail in words: one sentence per event, with the fields that changed, in the reader's
language ("Data exports: Under maintenance → Operational")."""

import datetime as dt
import json
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import FieldDoesNotExist
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from incidents import formatting
from incidents.models import (
    ActionItem,
    ActionItemState,
    AlertRule,
    AlertSource,
    AuditEvent,
    Component,
    ComponentGroup,
    ComponentStatus,
    Impact,
    Incident,
    IncidentStatus,
    IncidentUpdate,
    Metric,
    Postmortem,
    PostmortemState,
    Probe,
    ProbeRegion,
    StatusMode,
    Subject,
    Subscriber,
    UpdateTemplate,
)
from incidents.models.metrics import THRESHOLD_FIELDS
from incidents.roles import Role
from incidents.security.masking import readable_audit_values
from incidents.translation import current_language, language_codes, pick

# What each action did; %(subject)s is the object's name. Unknown actions get a generic sentence.
SENTENCES = {
    "component.created": gettext_lazy("Component %(subject)s created"),
    "component.changed": gettext_lazy("Component %(subject)s changed"),
    "group.created": gettext_lazy("Group %(subject)s created"),
    "group.changed": gettext_lazy("Group %(subject)s changed"),
    "metric.created": gettext_lazy("Metric %(subject)s created"),
    "metric.changed": gettext_lazy("Metric %(subject)s changed"),
    "metric.no_data": gettext_lazy("%(subject)s: no data"),
    "thresholds.created": gettext_lazy("Thresholds of %(subject)s set"),
    "thresholds.changed": gettext_lazy("Thresholds of %(subject)s changed"),
    "probe.created": gettext_lazy("Probe %(subject)s created"),
    "probe.changed": gettext_lazy("Probe %(subject)s changed"),
    "probe.deleted": gettext_lazy("Probe %(subject)s deleted"),
    "probe.token_issued": gettext_lazy("New push token issued for probe %(subject)s"),
    "probe.secret_rotated": gettext_lazy("Signing secret of probe %(subject)s rotated"),
    "probe_region.created": gettext_lazy("Probe region %(subject)s added"),
    "probe_region.changed": gettext_lazy("Probe region %(subject)s changed"),
    "probe_region.key_rotated": gettext_lazy("New key issued for probe region %(subject)s"),
    "samples.imported": gettext_lazy("Samples imported into %(subject)s"),
    "incident.declared": gettext_lazy("Incident declared: %(subject)s"),
    "maintenance.scheduled": gettext_lazy("Maintenance scheduled: %(subject)s"),
    "incident.entered_as_record": gettext_lazy("Entered as a record of the past: %(subject)s"),
    "incident.imported_as_record": gettext_lazy("Imported from Statuspage: %(subject)s"),
    "incident.published": gettext_lazy("Published: %(subject)s"),
    "incident.edited": gettext_lazy("Edited: %(subject)s"),
    "incident.related": gettext_lazy("Related incidents of %(subject)s changed"),
    "update.edited": gettext_lazy("Update text corrected: %(subject)s"),
    "postmortem.published": gettext_lazy("Postmortem published"),
    "postmortem.unpublished": gettext_lazy("Postmortem unpublished"),
    "postmortem.key_figures_changed": gettext_lazy("Key figures of the postmortem changed"),
    "action_item.created": gettext_lazy("Action item added: %(subject)s"),
    "action_item.changed": gettext_lazy("Action item changed: %(subject)s"),
    "user.role_changed": gettext_lazy("Role of %(subject)s changed"),
    "api_token.issued": gettext_lazy("API token %(subject)s issued"),
    "api_token.revoked": gettext_lazy("API token %(subject)s revoked"),
    "subscriber.created": gettext_lazy("Subscriber %(subject)s added"),
    "subscriber.changed": gettext_lazy("Subscriber %(subject)s changed"),
    "subscriber.deleted": gettext_lazy("Subscriber %(subject)s removed"),
    "alert_rule.created": gettext_lazy("Alert rule %(subject)s created"),
    "alert_rule.changed": gettext_lazy("Alert rule %(subject)s changed"),
    "alert_rule.deleted": gettext_lazy("Alert rule %(subject)s deleted"),
    "update_template.created": gettext_lazy("Update template %(subject)s created"),
    "update_template.changed": gettext_lazy("Update template %(subject)s changed"),
    "update_template.deleted": gettext_lazy("Update template %(subject)s deleted"),
    "configuration.applied": gettext_lazy("Configuration applied"),
    "admin_created": gettext_lazy("%(type)s %(subject)s created in the admin"),
    "admin_changed": gettext_lazy("%(type)s %(subject)s changed in the admin"),
    "admin_deleted": gettext_lazy("%(type)s %(subject)s deleted in the admin"),
}

# A status a probe measured is recorded as done by "probe:<its name>".
PROBE_AUTOMATION = "probe:"

# The automations that act without a person (AuditEvent.actor_label when actor is empty).
AUTOMATIONS = {
    "system": gettext_lazy("the system"),
    "probes": gettext_lazy("the probes"),
    "maintenance schedule": gettext_lazy("the maintenance schedule"),
    "alertmanager": gettext_lazy("an Alertmanager alert"),
    "grafana": gettext_lazy("a Grafana alert"),
}

# Labels of the keys that are not a field of the subject's model (the fields say their own
# `verbose_name`).
FIELD_LABELS = {
    "name": gettext_lazy("Name"),  # of an API token, on its user's trail
    "body": gettext_lazy("Text"),
    "update_status": gettext_lazy("Status"),
    "published": gettext_lazy("Published"),
    "notify": gettext_lazy("Notify subscribers"),
    "role": gettext_lazy("Role"),
    "reason": gettext_lazy("Reason"),
    "revoked": gettext_lazy("Revoked"),
    "confirmed": gettext_lazy("Confirmed"),
}

SUBJECT_MODELS = {
    Subject.COMPONENT_GROUP: ComponentGroup,
    Subject.COMPONENT: Component,
    Subject.METRIC: Metric,
    Subject.THRESHOLD: Metric,
    Subject.PROBE: Probe,
    Subject.PROBE_REGION: ProbeRegion,
    Subject.ALERT_RULE: AlertRule,
    Subject.INCIDENT: Incident,
    Subject.UPDATE: IncidentUpdate,
    Subject.POSTMORTEM: Postmortem,
    Subject.ACTION_ITEM: ActionItem,
    Subject.SUBSCRIBER: Subscriber,
    "update_template": UpdateTemplate,
}

# What a record is called; for a new record the sentence says it ("Component API created").
NAMING_KEYS = {"name", "title"}

# Keys said in the sentence itself, or bookkeeping nobody reads.
QUIET_KEYS = {"language", "owner_id", "due_precision", "update_status", "metric_id", "config", "token"}

CHOICES = {
    "status": (ComponentStatus, IncidentStatus),
    "update_status": (IncidentStatus,),
    "impact": (Impact,),
    "status_mode": (StatusMode,),
    "role": (Role,),
    "state": (PostmortemState, ActionItemState),
    "source": (AlertSource,),
}

# Records an event refers to by id, said by their names.
RELATED = {"component_id": Component, "group_id": ComponentGroup}

# What an empty value means where "—" would not say it.
EMPTY = {
    "source": gettext_lazy("Any source"),
    "group_id": gettext_lazy("no group"),
    "role": gettext_lazy("No role"),
    "regions": gettext_lazy("every active region"),
}

# What each section of a configuration file holds, as a change names it ("component "api" added").
CONFIGURATION_KINDS = {
    "regions": gettext_lazy("region"),
    "groups": gettext_lazy("group"),
    "components": gettext_lazy("component"),
    "metrics": gettext_lazy("metric"),
    "probes": gettext_lazy("probe"),
    "update_templates": gettext_lazy("update template"),
    "alert_rules": gettext_lazy("alert rule"),
}

LONG_TEXT = 80  # longer values (Markdown bodies, postmortem sections) are named, not quoted


@dataclass
class AuditLine:
    event: AuditEvent
    sentence: str  # "Data exports: Under maintenance → Operational"
    actor: str  # "alice", or "the probes"
    by_automation: bool
    details: list[str] = field(default_factory=list)  # "Impact: Minor → Major"


def actor_text(event: AuditEvent) -> tuple[str, bool]:
    """Who acted, as a reader says it; True when it was an automation rather than a person."""
    if event.actor_id is None and event.actor_label in AUTOMATIONS:
        return str(AUTOMATIONS[event.actor_label]), True
    if event.actor_id is None and event.actor_label.startswith(PROBE_AUTOMATION):
        name = event.actor_label.removeprefix(PROBE_AUTOMATION)
        return _("the probe “%(name)s”") % {"name": name}, True
    return event.actor_label, False


def choice_label(key: str, value) -> str | None:
    for choices in CHOICES.get(key, ()):
        if value in choices.values:
            return str(choices(value).label)
    return None


def related_names(events, language: str) -> dict[tuple[str, str], str]:
    """The names of the records the events refer to by id, one query per kind of record."""
    wanted = defaultdict(set)
    for event in events:
        for values in (event.before or {}, event.after or {}):
            for key in RELATED.keys() & values.keys():
                if values[key] is not None:
                    wanted[key].add(values[key])
    return {
        (key, str(pk)): pick(name, language=language).text or slug
        for key, ids in wanted.items()
        for pk, name, slug in RELATED[key].objects.filter(pk__in=ids).values_list("pk", "name", "slug")
    }


def value_text(key: str, value, language: str, *, precision: str = "day", names=None) -> str:
    """One stored value in words: labels for choices, names for ids, dates and numbers localised."""
    if value is None or value == "" or value == {}:
        return str(EMPTY.get(key, "—"))
    if key in RELATED:
        found = (names or {}).get((key, str(value)))
        return found or _("a deleted record (id %(id)s)") % {"id": value}
    label = choice_label(key, value)
    if label is not None:
        return label
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int | float):
        return formatting.format_number(value, language, precision=0 if float(value).is_integer() else 2)
    if isinstance(value, dict):
        return value_text(key, pick(value, language=language).text, language)
    if isinstance(value, list):
        return ", ".join(value_text(key, item, language) for item in value) or str(EMPTY.get(key, "—"))
    text = str(value)
    if key.endswith(("_at", "_for", "_until", "_since", "_before")):
        try:
            return formatting.format_datetime(dt.datetime.fromisoformat(text), language)
        except ValueError:
            pass
    if key == "due_date":
        try:
            return formatting.format_due(dt.date.fromisoformat(text), precision, language)
        except ValueError:
            pass
    return text


def is_long(value) -> bool:
    if isinstance(value, dict):
        return any(is_long(v) for v in value.values())
    return isinstance(value, str) and (len(value) > LONG_TEXT or "\n" in value)


def field_label(key: str, subject_type: str) -> str:
    """The model field's label (its `verbose_name`), else ours for keys that are not fields."""
    if key not in FIELD_LABELS and subject_type in SUBJECT_MODELS:
        try:
            return capfirst(SUBJECT_MODELS[subject_type]._meta.get_field(key).verbose_name)
        except FieldDoesNotExist:
            pass
    return str(FIELD_LABELS.get(key, key.replace("_", " ").capitalize()))


def details(event: AuditEvent, language: str, *, said: tuple[str, ...] = (), names=None) -> list[str]:
    """ "Impact: Minor → Major" for each changed field not `said` already; long texts are only named."""
    before, after = readable_audit_values(event)
    if event.action.endswith(".created"):
        before = {}  # older events stored every field of a new record as "before: None"
    lines = []
    for key in [*after, *(k for k in before if k not in after)]:
        if key in QUIET_KEYS or key in said:
            continue
        old, new = before.get(key), after.get(key)
        if key in before and old == new:
            continue
        if key in NAMING_KEYS and key not in before:
            continue  # a new record: its sentence names it
        label = field_label(key, event.subject_type)
        if is_long(old) or is_long(new):
            lines.append(_("%(field)s written") % {"field": label})
        elif key in before:
            lines.append(
                _("%(field)s: %(before)s → %(after)s")
                % {
                    "field": label,
                    "before": value_text(key, old, language, names=names),
                    "after": value_text(key, new, language, names=names),
                }
            )
        elif new not in (None, "", {}):
            precision = after.get("due_precision", "day")
            shown = value_text(key, new, language, precision=precision, names=names)
            lines.append(_("%(field)s: %(value)s") % {"field": label, "value": shown})
    return lines


def file_value(value) -> str:
    """A value as a configuration file writes it (texts quoted), or "—" for none."""
    return "—" if value is None else json.dumps(value, ensure_ascii=False)


def change_text(change: dict) -> str:
    """One change of a configuration file in words, in the active language; a credential's
    change never says its values."""
    kind, key, action = change["section"], change["key"], change["action"]
    words = {"kind": CONFIGURATION_KINDS.get(kind, kind), "key": key}
    if action == "added":
        return _('%(kind)s "%(key)s" added') % words
    if action == "removed":
        return _('%(kind)s "%(key)s" removed') % words
    if action == "kept":
        return _('%(kind)s "%(key)s" is not in the file, kept') % words
    words |= {"field": change["field"]}
    if change.get("secret"):
        return _('%(kind)s "%(key)s": %(field)s changed (a credential, not shown)') % words
    words |= {"before": file_value(change.get("before")), "after": file_value(change.get("after"))}
    if kind == "metrics" and change["field"].startswith("thresholds."):
        words["status"] = change["field"].removeprefix("thresholds.")
        if change.get("before") is None:
            return _('threshold %(status)s of metric "%(key)s" added: %(after)s') % words
        if change.get("after") is None:
            return _('threshold %(status)s of metric "%(key)s" removed (was %(before)s)') % words
        return _('threshold %(status)s of metric "%(key)s": %(before)s → %(after)s') % words
    return _('%(kind)s "%(key)s": %(field)s %(before)s → %(after)s') % words


CONFIGURATION_SUBJECT_TYPES = {
    "regions": Subject.PROBE_REGION,
    "groups": Subject.COMPONENT_GROUP,
    "components": Subject.COMPONENT,
    "metrics": Subject.METRIC,
    "probes": Subject.PROBE,
    "update_templates": "update_template",
    "alert_rules": Subject.ALERT_RULE,
}


def applied_change_text(change: dict, language: str) -> str:
    """A change of an applied configuration as the editor says any other change: the field's
    label and the values in words ("Degraded performance at: 600 → 500"), where the file's
    own wording (`change_text`, for those who edit the file) gives its paths and literals."""
    if change["action"] != "changed" or change.get("secret"):
        return change_text(change)
    key, _dot, part = change["field"].partition(".")
    if key == "thresholds":
        key, part = THRESHOLD_FIELDS.get(part, part), ""
    label = field_label(key, CONFIGURATION_SUBJECT_TYPES.get(change["section"], ""))
    if part in language_codes():
        label = f"{label} ({formatting.language_name(part, language)})"
    text = _('%(kind)s "%(key)s": %(field)s: %(before)s → %(after)s') % {
        "kind": CONFIGURATION_KINDS.get(change["section"], change["section"]),
        "key": change["key"],
        "field": label,
        "before": value_text(key, change.get("before"), language),
        "after": value_text(key, change.get("after"), language),
    }
    return capfirst(text)


def sentence(event: AuditEvent, language: str, names=None) -> tuple[str, list[str]]:
    """The event's sentence and the details it does not already say."""
    before, after = event.before or {}, event.after or {}
    subject = event.subject_label
    if event.action == "configuration.applied":
        changes = after.get("changes", [])
        return str(SENTENCES[event.action]), [applied_change_text(change, language) for change in changes]
    if event.action == "component.status_changed":
        text = _("%(subject)s: %(before)s → %(after)s") % {
            "subject": subject,
            "before": value_text("status", before.get("status"), language),
            "after": value_text("status", after.get("status"), language),
        }
        return text, [_("Reason: %(reason)s") % {"reason": after["reason"]}] if after.get("reason") else []
    if event.action == "update.posted":
        status = value_text("update_status", after.get("update_status") or after.get("status"), language)
        text = _("Update posted on %(subject)s: %(status)s") % {"subject": subject, "status": status}
        return text, details(event, language, said=("status",), names=names)
    if event.action == "postmortem.written":
        name = formatting.language_name(after.get("language", ""), language) if after.get("language") else ""
        text = (
            _("Postmortem written in %(language)s") % {"language": name} if name else _("Postmortem written")
        )
        return text, details(event, language, names=names)
    if event.action == "user.role_changed":
        text = _("Role of %(subject)s: %(before)s → %(after)s") % {
            "subject": subject,
            "before": value_text("role", before.get("role"), language),
            "after": value_text("role", after.get("role"), language),
        }
        return text, []
    template = SENTENCES.get(event.action)
    kind = event.get_subject_type_display() if event.subject_type in Subject.values else event.subject_type
    if template is None:
        text = _("%(type)s %(subject)s: %(action)s") % {
            "type": kind,
            "subject": subject,
            "action": event.action,
        }
    else:
        text = str(template) % {"subject": subject, "type": kind}
    return text, details(event, language, names=names)


def describe(event: AuditEvent, language: str | None = None, names=None) -> AuditLine:
    """One audit event in words; `names` (related_names() of a list) are looked up when not given."""
    language = language or current_language()
    if names is None:
        names = related_names([event], language)
    text, lines = sentence(event, language, names)
    actor, automated = actor_text(event)
    return AuditLine(event=event, sentence=text, actor=actor, by_automation=automated, details=lines)


def audit_lines(events) -> list[AuditLine]:
    language = current_language()
    events = list(events)
    names = related_names(events, language)
    return [describe(event, language, names) for event in events]
