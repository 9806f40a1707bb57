"""What a responder fills in for each step of an incident's life. The editor's forms and the
API's serializers build these; the lifecycle functions run them."""

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from incidents.models import Component, ComponentStatus, Impact, Incident, IncidentKind, IncidentStatus

ComponentStatuses = Mapping[Component, ComponentStatus | str]
# A TypeVar, not `def f[C]`: the import-circle checker parses the code with Python 3.11.
C = TypeVar("C")


def command_from(kind: type[C], data: Mapping[str, Any], **given: Any) -> C:  # noqa: UP047
    """A `kind` from a form's or a serializer's cleaned data (the fields it names), `given` over it."""
    names = {f.name for f in fields(kind)} - given.keys()  # type: ignore[arg-type]
    return kind(**{name: data[name] for name in names if name in data}, **given)


@dataclass(frozen=True, kw_only=True)
class Opening:
    """What every new event carries; with a `body`, its first update is written at once."""

    title: str
    language: str
    body: str = ""
    impact: Impact | str = Impact.MINOR
    component_statuses: ComponentStatuses = field(default_factory=dict)
    status: IncidentStatus | str | None = None
    started_at: dt.datetime | None = None
    publish: bool = True
    display_time_zone: str = ""
    related: Sequence[Incident] = ()
    scheduled_for: dt.datetime | None = None
    scheduled_until: dt.datetime | None = None


@dataclass(frozen=True, kw_only=True)
class DeclareIncident(Opening):
    """An incident happening now; `notify=False` declares it without telling subscribers."""

    notify: bool | None = None


@dataclass(frozen=True, kw_only=True)
class ScheduleMaintenance(Opening):
    """A planned window; its components change when the window opens."""

    impact: Impact | str = Impact.NONE
    notify: bool | None = None


@dataclass(frozen=True, kw_only=True)
class EnterRecord(Opening):
    """An incident (or maintenance) of the past: it notifies nobody and its component statuses
    count on its own days, never as the components' current status."""

    kind: IncidentKind | str = IncidentKind.INCIDENT


@dataclass(frozen=True, kw_only=True)
class PostUpdate:
    """A timeline update; without a status, a context event (a deploy, a note)."""

    status: IncidentStatus | str | None
    body: Mapping[str, str]
    language: str
    component_statuses: ComponentStatuses = field(default_factory=dict)
    display_at: dt.datetime | None = None
    notify: bool | None = None
    expected_version: int | None = None


@dataclass(frozen=True, kw_only=True)
class ResolveIncident:
    """Closing by the resolve rule; without a text, the default message."""

    body: Mapping[str, str]
    language: str
    display_at: dt.datetime | None = None
    expected_version: int | None = None


@dataclass(frozen=True, kw_only=True)
class ReopenIncident:
    body: Mapping[str, str]
    language: str
    expected_version: int | None = None


@dataclass(frozen=True, kw_only=True)
class EditIncident:
    """The fields given change; None leaves one as it is (`related` included)."""

    expected_version: int
    title: Mapping[str, str] | None = None
    impact: Impact | str | None = None
    display_time_zone: str | None = None
    started_at: dt.datetime | None = None
    resolved_at: dt.datetime | None = None
    reason: str = ""
    related: Sequence[Incident] | None = None


@dataclass(frozen=True, kw_only=True)
class EditUpdate:
    """The text of one language of a posted update."""

    language: str
    text: str
    expected_version: int


@dataclass(frozen=True, kw_only=True)
class WritePostmortem:
    """One language of a postmortem's sections and key figures, each when given."""

    language: str
    sections: Mapping[str, str] | None = None
    key_figures: Sequence[Mapping[str, Any]] | None = None
    expected_version: int | None = None
