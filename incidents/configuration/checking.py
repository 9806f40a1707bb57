"""Checking a document: the published schema first, then the rules the API and the editor apply
to each object (their serializers, forms, model checks and kind modules, never a copy of them),
then what only a whole document can get wrong (duplicates, references, credentials).

Every mistake is reported, once, with its path: `components[3].group: unknown group "storage"`.
A value the schema refuses is not judged again by the rules.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from incidents.api.probe_serializers import ProbeSerializer
from incidents.api.serializers import ComponentGroupSerializer, ComponentSerializer, MetricSerializer
from incidents.forms.regions import ProbeRegionForm
from incidents.forms.update_templates import UpdateTemplateForm
from incidents.intake.rules import validate_rule
from incidents.intake.serializers import AlertRuleSerializer
from incidents.models import AlertRule, Component, Metric, Probe, UpdateTemplate
from incidents.services.component_limits import check_room_for_components
from incidents.services.probes import validate_probe

from . import credentials
from .document import SECTIONS as ORDER
from .document import DocumentError, Problem, path_text, schema_problems
from .export import Stored, stored_rows
from .sections import (
    COMPONENT_FIELDS,
    GROUP_FIELDS,
    METRIC_FIELDS,
    PROBE_FIELDS,
    RULE_FIELDS,
    SECTIONS,
    THRESHOLDS,
    normalized,
)

UNKNOWN_GROUP = gettext_lazy('unknown group "%(name)s"')
UNKNOWN_COMPONENT = gettext_lazy('unknown component "%(name)s"')
# What each section's entries refer to: (the entry's field, the section it names, the refusal).
REFERENCES = {
    "components": [("group", "groups", UNKNOWN_GROUP)],
    "metrics": [("component", "components", UNKNOWN_COMPONENT)],
    "probes": [("metric", "metrics", gettext_lazy('unknown metric "%(name)s"'))],
    "alert_rules": [("component", "components", UNKNOWN_COMPONENT)],
}
# The field of each section's entries that its key is made of, where a duplicate is reported.
KEY_FIELDS = {
    "regions": "name",
    "groups": "slug",
    "components": "slug",
    "metrics": "slug",
    "probes": "metric",
    "update_templates": "name",
    "alert_rules": "name",
}


@dataclass
class Entry:
    """One entry of the document: where it is, its key, and its export form (credentials resolved)."""

    path: str
    key: str
    values: dict


@dataclass
class Checked:
    """A document found without mistakes: the entries of the sections it has, and the rows they match."""

    sections: dict[str, list[Entry]]
    stored: dict[str, dict[str, Stored]]
    references: dict[str, set[str]] = field(default_factory=dict)


def check_document(document: object, *, environ: Mapping[str, str]) -> Checked:
    """The document's entries, or DocumentError naming every mistake in it."""
    if not isinstance(document, dict):
        raise DocumentError([Problem("", _("The document must be a mapping of sections."))])
    problems = schema_problems(document)
    refused = [problem.path for problem in problems]
    stored = stored_rows()
    checked = Checked(sections={}, stored=stored)
    for name in ORDER:
        if isinstance(document.get(name), list):
            checked.sections[name] = _entries(name, document[name], environ, problems)
    checked.references = {
        name: {entry.key for entry in checked.sections[name]}
        if name in checked.sections
        else set(stored[name])
        for name in ORDER
    }
    for name, entries in checked.sections.items():
        raw = document[name]
        for index, entry in enumerate(entries):
            source = raw[index] if isinstance(raw[index], dict) else {}
            for problem in _entry_problems(name, entry, source, checked, environ):
                if not any(_overlaps(problem.path, path) for path in refused):
                    problems.append(problem)
    problems.extend(_room_problems(checked))
    if problems:
        raise DocumentError(_unique(problems))
    return checked


def _overlaps(one: str, other: str) -> bool:
    """Whether one path lies within the other (the same value, or a part of it)."""
    shorter, longer = sorted((one, other), key=len)
    return longer == shorter or longer.startswith((shorter + ".", shorter + "["))


def _unique(problems: list[Problem]) -> list[Problem]:
    seen, kept = set(), []
    for problem in problems:
        if problem.path not in seen or not problem.path:
            seen.add(problem.path)
            kept.append(problem)
    return kept


def _entries(name: str, raw: list, environ: Mapping[str, str], problems: list[Problem]) -> list[Entry]:
    section = SECTIONS[name]
    entries, first_at = [], {}
    for index, item in enumerate(raw):
        path = path_text([name, index])
        values = normalized(section, item) if isinstance(item, dict) else section.defaults()
        if name == "probes":
            values = {
                **values,
                **credentials.resolved({"url": values["url"], "config": values["config"]}, environ),
            }
        key = section.key(values)
        if key in first_at and isinstance(item, dict):
            problems.append(
                Problem(f"{path}.{KEY_FIELDS[name]}", _("duplicate of %(other)s") % {"other": first_at[key]})
            )
        first_at.setdefault(key, path)
        entries.append(Entry(path, key, values))
    return entries


def _entry_problems(name: str, entry: Entry, source: dict, checked: Checked, environ) -> list[Problem]:
    problems = _reference_problems(name, entry, checked)
    if name == "probes":
        problems += _credential_problems(entry, source, environ)
    ruled = RULES[name](entry, checked)
    problems += [problem for problem in ruled if not any(_overlaps(problem.path, p.path) for p in problems)]
    return problems


def _reference_problems(name: str, entry: Entry, checked: Checked) -> list[Problem]:
    problems = []
    for key, target, refusal in REFERENCES.get(name, []):
        value = entry.values.get(key)
        if isinstance(value, str) and value not in checked.references[target]:
            problems.append(Problem(f"{entry.path}.{key}", str(refusal) % {"name": value}))
    if name == "probes":
        for index, region in enumerate(entry.values.get("regions") or []):
            if isinstance(region, str) and region not in checked.references["regions"]:
                message = _('unknown region "%(name)s"') % {"name": region}
                problems.append(Problem(f"{entry.path}.regions[{index}]", message))
    return problems


def _credential_problems(entry: Entry, source: dict, environ) -> list[Problem]:
    problems = []
    url, config = source.get("url", ""), source.get("config", {})
    if credentials.url_carries_credentials(url):
        message = _("carries a credential (a query value or a password): write the URL as {env: NAME}")
        problems.append(Problem(f"{entry.path}.url", message))
    for path in credentials.credential_paths(config) if isinstance(config, dict) else []:
        message = _("a credential written as a value: write it as {env: NAME}")
        problems.append(Problem(path_text([entry.path, "config", *path]), message))
    for path, variable in credentials.references_in({"url": url, "config": config}):
        if variable not in environ:
            message = _("the environment variable %(name)s is not set") % {"name": variable}
            problems.append(Problem(path_text([entry.path, *path]), message))
    return problems


def _error_problems(path: str, errors, renamed: dict[str, str] | None = None) -> list[Problem]:
    """Problems from serializer or form errors ({field: [messages] or nested}), first message each."""
    problems = []
    for name, messages in errors.items():
        field_name = (renamed or {}).get(name, name)
        where = path if name in ("non_field_errors", "__all__", None) else f"{path}.{field_name}"
        if isinstance(messages, dict):
            problems += _error_problems(where, messages)
        elif messages:
            first = messages[0]
            problems += (
                _error_problems(where, first) if isinstance(first, dict) else [Problem(where, str(first))]
            )
    return problems


def _validation_problems(path: str, error: ValidationError, renamed: dict[str, str] | None = None):
    if hasattr(error, "error_dict"):
        return _error_problems(
            path, {name: errors[0].messages for name, errors in error.error_dict.items()}, renamed
        )
    return [Problem(path, error.messages[0])]


def _serialized(serializer, path: str, *, without=(), renamed=None) -> tuple[list[Problem], dict]:
    for name in without:
        serializer.fields.pop(name)
    if serializer.is_valid():
        return [], serializer.validated_data
    return _error_problems(path, serializer.errors, renamed), {}


def _stored(checked: Checked, name: str, key: str):
    found = checked.stored[name].get(key)
    return found.row if found else None


def _plain(values: dict, names) -> dict:
    return {name: values[name] for name in names if name in values}


THRESHOLD_PATHS = {field_name: f"thresholds.{status}" for status, field_name in THRESHOLDS.items()}


def metric_fields(values: dict) -> dict:
    """A metric entry as the API's fields (thresholds by their model fields)."""
    thresholds = values.get("thresholds") if isinstance(values.get("thresholds"), dict) else {}
    return {
        **_plain(values, METRIC_FIELDS),
        **{field_name: thresholds.get(status) for status, field_name in THRESHOLDS.items()},
    }


def _group_problems(entry: Entry, checked: Checked) -> list[Problem]:
    instance = _stored(checked, "groups", entry.key)
    serializer = ComponentGroupSerializer(instance, data=_plain(entry.values, GROUP_FIELDS))
    return _serialized(serializer, entry.path)[0]


def _component_problems(entry: Entry, checked: Checked) -> list[Problem]:
    instance = _stored(checked, "components", entry.key)
    serializer = ComponentSerializer(instance, data=_plain(entry.values, COMPONENT_FIELDS))
    return _serialized(serializer, entry.path, without=["group"])[0]


def _metric_problems(entry: Entry, checked: Checked) -> list[Problem]:
    serializer = MetricSerializer(data=metric_fields(entry.values))
    problems, data = _serialized(serializer, entry.path, without=["component"], renamed=THRESHOLD_PATHS)
    if problems:
        return problems
    try:
        Metric(**data).clean()
    except ValidationError as error:
        return _validation_problems(entry.path, error, THRESHOLD_PATHS)
    return []


def _probe_problems(entry: Entry, checked: Checked) -> list[Problem]:
    serializer = ProbeSerializer(data=_plain(entry.values, PROBE_FIELDS))
    problems, data = _serialized(serializer, entry.path, without=["metric", "regions"])
    if problems:
        return problems
    stored = _stored(checked, "probes", entry.key)
    probe = Probe(pk=stored.pk if stored else None, **data)
    try:
        validate_probe(probe)
    except ValidationError as error:
        return _validation_problems(entry.path, error)
    return []


def _region_problems(entry: Entry, checked: Checked) -> list[Problem]:
    form = ProbeRegionForm(entry.values, instance=_stored(checked, "regions", entry.key))
    return [] if form.is_valid() else _error_problems(entry.path, form.errors)


def file_components(checked: Checked) -> dict[str, Component]:
    """Components as the document has them (the database's where it has no components)."""
    if "components" not in checked.sections:
        return {key: stored.row for key, stored in checked.stored["components"].items()}
    return {
        entry.key: Component(
            slug=entry.key, name=entry.values.get("name"), status_mode=entry.values.get("status_mode")
        )
        for entry in checked.sections["components"]
    }


def template_form_data(values: dict) -> dict:
    """An update template entry as the editor's form fields."""
    statuses = values.get("components") if isinstance(values.get("components"), dict) else {}
    data = {**_plain(values, ("name", "language", "kind", "status")), "affected": list(statuses)}
    for name in ("title", "body"):
        texts = values.get(name) if isinstance(values.get(name), dict) else {}
        data.update({f"{name}_{code}": text for code, text in texts.items()})
    data.update({f"status_{slug}": status for slug, status in statuses.items()})
    return data


def _template_problems(entry: Entry, checked: Checked) -> list[Problem]:
    components = list(file_components(checked).values())
    instance = _stored(checked, "update_templates", entry.key) or UpdateTemplate()
    form = UpdateTemplateForm(template_form_data(entry.values), instance=instance, components=components)
    if form.is_valid():
        return []
    renamed = {"affected": "components"}
    for name in form.errors:
        prefix, _sep, rest = name.partition("_")
        if prefix in ("title", "body"):
            renamed[name] = f"{prefix}.{rest}"
        elif prefix == "status" and rest:
            renamed[name] = f"components.{rest}"
    return _error_problems(entry.path, form.errors, renamed)


def _rule_problems(entry: Entry, checked: Checked) -> list[Problem]:
    instance = _stored(checked, "alert_rules", entry.key)
    serializer = AlertRuleSerializer(instance, data=_plain(entry.values, RULE_FIELDS))
    problems, data = _serialized(serializer, entry.path, without=["component"])
    if problems:
        return problems
    rule = AlertRule(**data)
    component = file_components(checked).get(entry.values.get("component"))
    if component is not None:
        rule.component = component
    try:
        validate_rule(rule)
    except ValidationError as error:
        return _validation_problems(entry.path, error)
    return []


RULES = {
    "regions": _region_problems,
    "groups": _group_problems,
    "components": _component_problems,
    "metrics": _metric_problems,
    "probes": _probe_problems,
    "update_templates": _template_problems,
    "alert_rules": _rule_problems,
}


def _room_problems(checked: Checked) -> list[Problem]:
    entries = checked.sections.get("components", [])
    adding = sum(1 for entry in entries if entry.key not in checked.stored["components"])
    try:
        check_room_for_components(adding=adding)
    except ValidationError as error:
        return [Problem("components", error.messages[0])]
    return []
