"""What applying a checked document would change, field by field, and what it refuses to remove.

Objects the database has and a section of the file does not are kept unless the plan prunes;
a section the file leaves out is left alone. Pruning never deletes history: a component that has
been in an incident, changed status or has samples, and a metric with samples, are refused (the
whole plan is), as is the home region.
"""

from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext as _

from incidents.models import Component, ComponentStatusChange, Incident, IntakeAlert, Sample

from . import credentials
from .checking import Checked, Entry
from .document import SECTIONS as ORDER
from .document import DocumentError, Problem
from .export import Stored

ADDED, CHANGED, REMOVED, KEPT = "added", "changed", "removed", "kept"


@dataclass(frozen=True)
class Change:
    """One change in words' terms: `component "api": name.en "API" → "Public API"`.

    A credential's change carries no values (`secret`)."""

    section: str
    key: str
    action: str
    field: str = ""
    before: object = None
    after: object = None
    secret: bool = False

    def as_dict(self) -> dict:
        values = {"section": self.section, "key": self.key, "action": self.action}
        if self.field:
            values["field"] = self.field
            if self.secret:
                values["secret"] = True
            else:
                values.update(before=self.before, after=self.after)
        return values


@dataclass
class Plan:
    checked: Checked
    changes: list[Change]

    @property
    def writes(self) -> list[Change]:
        """The changes applying makes (what is kept is only reported)."""
        return [change for change in self.changes if change.action != KEPT]

    def entries(self, section: str, action: str) -> list[Entry]:
        keys = {
            change.key for change in self.changes if change.section == section and change.action == action
        }
        return [entry for entry in self.checked.sections.get(section, []) if entry.key in keys]

    def removed(self, section: str) -> list[Stored]:
        keys = [c.key for c in self.changes if c.section == section and c.action == REMOVED]
        return [self.checked.stored[section][key] for key in keys]


def flat(values: object, prefix: str = "") -> dict[str, object]:
    """An entry's values by dotted path (`thresholds.major_outage`, `name.en`); lists stay whole."""
    if isinstance(values, dict) and not credentials.is_reference(values):
        found: dict[str, object] = {}
        for key, value in values.items():
            found.update(flat(value, f"{prefix}.{key}" if prefix else str(key)))
        return found if found or not prefix else {prefix: {}}
    return {prefix: values}


def _credential_fields(entry: dict) -> set[str]:
    fields = {"url"} if credentials.url_carries_credentials(entry.get("url")) else set()
    for path in credentials.credential_paths(entry.get("config") or {}):
        fields.add(".".join(["config", *map(str, path)]))
    return fields


def entry_changes(section: str, key: str, before: dict, after: dict) -> list[Change]:
    old, new = flat(before), flat(after)
    secret = _credential_fields(before) | _credential_fields(after) if section == "probes" else set()
    changes = []
    for name in [*new, *(name for name in old if name not in new)]:
        if old.get(name) != new.get(name):
            hidden = name in secret or any(name.startswith(f"{field}.") for field in secret)
            changes.append(Change(section, key, CHANGED, name, old.get(name), new.get(name), secret=hidden))
    return changes


def plan_changes(checked: Checked, *, prune: bool) -> Plan:
    """The changes from the database to the document; DocumentError if a removal is refused."""
    changes: list[Change] = []
    for section in ORDER:
        if section not in checked.sections:
            continue
        stored = checked.stored[section]
        in_file = set()
        for entry in checked.sections[section]:
            in_file.add(entry.key)
            if entry.key not in stored:
                changes.append(Change(section, entry.key, ADDED))
            else:
                changes += entry_changes(section, entry.key, stored[entry.key].entry, entry.values)
        for key in sorted(set(stored) - in_file):
            changes.append(Change(section, key, REMOVED if prune else KEPT))
    plan = Plan(checked, changes)
    refused = _refused_removals(plan)
    if refused:
        raise DocumentError(refused)
    return plan


def history_of(component: Component) -> list[str]:
    """What a component has been through, in words; empty when nothing."""
    counts = [
        (Incident.objects.filter(components=component).count(), _("incidents: %(n)s")),
        (ComponentStatusChange.objects.filter(component=component).count(), _("status changes: %(n)s")),
        (Sample.objects.filter(metric__component=component).count(), _("samples: %(n)s")),
        (IntakeAlert.objects.filter(component=component).count(), _("alerts: %(n)s")),
    ]
    return [text % {"n": count} for count, text in counts if count]


def _refused_removals(plan: Plan) -> list[Problem]:
    problems = []
    for stored in plan.removed("components"):
        history = history_of(stored.row)
        if history:
            message = _(
                'component "%(key)s" has history (%(history)s) and is not removed: keep it in the file'
            ) % {"key": stored.row.slug, "history": ", ".join(history)}
            problems.append(Problem("components", message))
    for stored in plan.removed("metrics"):
        samples = Sample.objects.filter(metric=stored.row).count()
        if samples:
            message = _(
                'metric "%(key)s" has history (samples: %(n)s) and is not removed: keep it in the file'
            ) % {
                "key": f"{stored.row.component.slug}/{stored.row.slug}",
                "n": samples,
            }
            problems.append(Problem("metrics", message))
    for stored in plan.removed("regions"):
        if stored.row.name == settings.PROBE_HOME_REGION:
            message = _('region "%(key)s" is the home region and is not removed: keep it in the file') % {
                "key": stored.row.name
            }
            problems.append(Problem("regions", message))
    return problems
