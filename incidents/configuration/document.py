"""The configuration document as text: YAML read and written in one stable form, and checked
against the published JSON Schema (schema.json beside this module)."""

import functools
import json
from dataclasses import dataclass
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError as SchemaError

SCHEMA_FILE = Path(__file__).with_name("schema.json")
VERSION = 1
# The document's sections, in the order they are written and applied.
SECTIONS = ("regions", "groups", "components", "metrics", "probes", "update_templates", "alert_rules")


@dataclass(frozen=True)
class Problem:
    """One mistake in a document: where (`components[3].group`) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message

    def as_dict(self) -> dict:
        return {"path": self.path, "message": self.message}


class DocumentError(Exception):
    """A document that cannot be read or applied; `problems` names every mistake found."""

    def __init__(self, problems: list[Problem]):
        super().__init__("\n".join(str(problem) for problem in problems))
        self.problems = problems


class _Loader(yaml.SafeLoader):
    """YAML's safe loader without its implicit dates (`2026-03-01` stays the text the schema
    reads) and without aliases: a few bytes of nested aliases expand to gigabytes once walked."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            mark = self.peek_event().start_mark
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed", mark)
        return super().compose_node(parent, index)


_Loader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class _Dumper(yaml.SafeDumper):
    """Lists indented under their key, and no aliases: the same document gives the same bytes."""

    def increase_indent(self, flow=False, indentless=False):
        return super().increase_indent(flow, False)

    def ignore_aliases(self, data):
        return True


def parse_yaml(text: str | bytes) -> object:
    """The document in `text` (YAML, and so JSON too); DocumentError when it is not one."""
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = getattr(error, "problem", None) or str(error)
        raise DocumentError([Problem("", f"not YAML: {where}{problem}")]) from None
    except RecursionError:  # PyYAML composes nested collections recursively
        raise DocumentError([Problem("", "not a configuration: nested too deeply")]) from None


def to_yaml(document: dict) -> str:
    return yaml.dump(
        document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100
    )


@functools.cache
def schema() -> dict:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def path_text(parts) -> str:
    """`components[3].group` from ("components", 3, "group")."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _problem(error: SchemaError) -> Problem:
    parts = list(error.absolute_path)
    if error.validator == "required":
        missing = error.message.split("'")[1]
        return Problem(path_text([*parts, missing]), "required, but missing")
    if error.validator == "additionalProperties" and error.schema.get("additionalProperties") is False:
        known = sorted(error.schema.get("properties", {}))
        unknown = sorted(set(error.instance) - set(known))
        return Problem(path_text([*parts, unknown[0]]), f"unknown key; known: {', '.join(known)}")
    if error.validator == "enum":
        allowed = ", ".join(json.dumps(value) for value in error.validator_value)
        return Problem(path_text(parts), f"{json.dumps(error.instance)} is not one of {allowed}")
    if error.validator == "anyOf":
        return Problem(path_text(parts), f"{json.dumps(error.instance, default=str)} is not allowed here")
    return Problem(path_text(parts), error.message)


def _unknown_keys(error: SchemaError) -> list[SchemaError]:
    """One error per unknown key (jsonschema gives one for all the keys of an object)."""
    if error.validator != "additionalProperties" or error.schema.get("additionalProperties") is not False:
        return [error]
    unknown = sorted(set(error.instance) - set(error.schema.get("properties", {})))
    return [
        SchemaError(
            error.message,
            validator="additionalProperties",
            path=[*error.absolute_path, key],
            instance={key: None},
            schema={"properties": {}, "additionalProperties": False},
        )
        for key in unknown
    ]


def schema_problems(document: object) -> list[Problem]:
    """Every place `document` breaks the schema, one problem each, in document order."""
    validator = Draft202012Validator(schema(), format_checker=Draft202012Validator.FORMAT_CHECKER)
    problems = []
    for error in validator.iter_errors(document):
        for single in _unknown_keys(error):
            if single is error:
                problems.append(_problem(error))
            else:
                key = single.path[-1]
                known = sorted(error.schema.get("properties", {}))
                path = path_text([*error.absolute_path, key])
                problems.append(Problem(path, f"unknown key; known: {', '.join(known)}"))
    return sorted(problems, key=lambda problem: _order(problem.path))


def _order(path: str) -> tuple:
    section = path.split("[", 1)[0].split(".", 1)[0]
    rank = SECTIONS.index(section) if section in SECTIONS else -1
    index = path.split("[", 1)[1].split("]", 1)[0] if "[" in path else ""
    return (rank, int(index) if index.isdigit() else -1, path)
