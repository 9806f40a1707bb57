"""Reading a Statuspage export (public `incidents.json`, `summary.json`, or the manage API's
incident objects) into plain values, every field checked before anything is written.

Lenient where Statuspage's own clients are: unknown keys are ignored, `postmortem` counts as
resolved, a missing `display_at` is the update's `created_at`. Strict where a record would be
wrong: a missing id, status or time, or a time out of bounds refuses the whole document, naming
the incident and the field.
"""

import asyncio
import datetime as dt
from dataclasses import dataclass, field

import aiohttp
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import ComponentStatus, Impact, IncidentKind, IncidentStatus
from incidents.outbound.client import open_session, refusal_in
from incidents.outbound.guard import check_url
from incidents.validation.instants import check_happened, check_planned, parse_instant
from incidents.validation.json_bodies import UnstorableText, loads_bounded
from incidents.validation.texts import check_title

MAX_DOCUMENT_BYTES = 200 * 1024 * 1024
FETCH_TIMEOUT_SECONDS = 60
MAINTENANCE_STATUSES = {"scheduled", "in_progress", "verifying", "completed"}


class ImportRefused(Exception):
    """The export cannot be imported as it is; the message names the incident and the field."""


@dataclass(frozen=True)
class AffectedComponent:
    name: str
    old_status: str
    new_status: str


@dataclass(frozen=True)
class ImportedUpdate:
    statuspage_id: str
    status: str
    body: str
    display_at: dt.datetime
    created_at: dt.datetime
    updated_at: dt.datetime
    affected: tuple[AffectedComponent, ...]


@dataclass(frozen=True)
class ImportedIncident:
    statuspage_id: str
    name: str
    kind: str
    status: str
    impact: str
    created_at: dt.datetime
    updated_at: dt.datetime
    started_at: dt.datetime
    monitoring_at: dt.datetime | None
    resolved_at: dt.datetime | None
    scheduled_for: dt.datetime | None
    scheduled_until: dt.datetime | None
    component_names: tuple[str, ...]
    updates: tuple[ImportedUpdate, ...]
    postmortem_body: str = ""
    postmortem_published_at: dt.datetime | None = None


@dataclass
class Export:
    incidents: list[ImportedIncident] = field(default_factory=list)
    component_names: list[str] = field(default_factory=list)


def read_source(source: str) -> bytes:
    """The bytes of a file path, or of an http(s) URL fetched through the outbound guard."""
    if source.startswith(("http://", "https://")):
        return fetch(source)
    try:
        with open(source, "rb") as handle:
            return handle.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as error:
        raise ImportRefused(
            _("Cannot read %(source)s: %(error)s") % {"source": source, "error": error}
        ) from None


def fetch(url: str) -> bytes:
    try:
        check_url(url, explain=True)
    except ValidationError as error:
        raise ImportRefused(" ".join(error.messages)) from None
    try:
        return asyncio.run(_fetch(url))
    except (aiohttp.ClientError, OSError, TimeoutError) as error:
        reason = refusal_in(error) or str(error) or type(error).__name__
        raise ImportRefused(_("Cannot fetch %(url)s: %(reason)s") % {"url": url, "reason": reason}) from None


async def _fetch(url: str) -> bytes:
    async with open_session() as session:
        timeout = aiohttp.ClientTimeout(total=FETCH_TIMEOUT_SECONDS)
        async with session.get(url, timeout=timeout, allow_redirects=False) as response:
            if response.status != 200:
                raise aiohttp.ClientError(_("the server answered %(status)s") % {"status": response.status})
            return await response.content.read(MAX_DOCUMENT_BYTES + 1)


def parse_export(data: bytes) -> Export:
    """Every incident (and maintenance) of a Statuspage document, checked."""
    if len(data) > MAX_DOCUMENT_BYTES:
        raise ImportRefused(_("The document is larger than %(mb)s MB.") % {"mb": MAX_DOCUMENT_BYTES // 2**20})
    try:
        document = loads_bounded(data)
    except UnstorableText as error:
        raise ImportRefused(str(error)) from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ImportRefused(_("The document is not JSON: %(error)s") % {"error": error}) from None
    if isinstance(document, list):  # the manage API answers with a bare list
        rows = document
        components = []
    elif isinstance(document, dict):
        rows = _list(document, "incidents", None) + _list(document, "scheduled_maintenances", None)
        components = _list(document, "components", None)
        if "incidents" not in document and "id" in document:  # a single manage API incident object
            rows = [document]
    else:
        raise ImportRefused(_("The document must be a JSON object or list."))
    export = Export()
    for row in components:
        if isinstance(row, dict) and not row.get("group") and isinstance(row.get("name"), str):
            export.component_names.append(row["name"].strip())
    seen = set()
    for row in rows:
        incident = parse_incident(row)
        if incident.statuspage_id in seen:
            raise ImportRefused(_("Incident %(id)s appears twice.") % {"id": incident.statuspage_id})
        seen.add(incident.statuspage_id)
        export.incidents.append(incident)
    return export


def _list(row: dict, key: str, incident_id: str | None, *, field_name: str = "") -> list:
    value = row.get(key) or []
    if not isinstance(value, list):
        raise _refused(incident_id, field_name or key, _("must be a list"))
    return value


def _refused(incident_id: str | None, field_name: str, problem: str) -> ImportRefused:
    if incident_id is None:
        return ImportRefused(_("%(field)s: %(problem)s") % {"field": field_name, "problem": problem})
    return ImportRefused(
        _("Incident %(id)s, field %(field)s: %(problem)s")
        % {"id": incident_id, "field": field_name, "problem": problem}
    )


def _text(
    row: dict, key: str, incident_id: str | None, *, required: bool = True, limit: int = 100_000
) -> str:
    value = row.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise _refused(incident_id, key, _("a text is required"))
    if len(value) > limit:
        raise _refused(incident_id, key, _("longer than %(limit)s characters") % {"limit": limit})
    return value


def _title(row: dict, incident_id: str) -> str:
    title = _text(row, "name", incident_id, limit=500).strip()
    try:
        check_title(title)
    except ValidationError as error:
        raise _refused(incident_id, "name", " ".join(error.messages)) from None
    return title


def _instant(row: dict, key: str, incident_id: str, *, required: bool = False, planned: bool = False):
    value = row.get(key)
    if value is None:
        if required:
            raise _refused(incident_id, key, _("a time is required"))
        return None
    instant = parse_instant(value) if isinstance(value, str) else None
    if instant is None or instant.tzinfo is None:
        raise _refused(incident_id, key, _("not an ISO 8601 time with its offset"))
    try:
        (check_planned if planned else check_happened)(instant)
    except ValidationError as error:
        raise _refused(incident_id, key, " ".join(error.messages)) from None
    return instant


def _choice(value: object, allowed, incident_id: str, key: str) -> str:
    if value not in allowed:
        raise _refused(incident_id, key, _("unknown value %(value)r") % {"value": value})
    return value


def parse_incident(row: object) -> ImportedIncident:
    if not isinstance(row, dict):
        raise ImportRefused(_("Every incident must be a JSON object."))
    incident_id = _text(row, "id", None, limit=64).strip()
    status = row.get("status")
    status = "resolved" if status == "postmortem" else status
    _choice(status, IncidentStatus.values, incident_id, "status")
    is_maintenance = status in MAINTENANCE_STATUSES or row.get("impact") == "maintenance"
    impact = row.get("impact") or "none"
    impact = (
        Impact.NONE.value
        if impact == "maintenance"
        else _choice(impact, Impact.values, incident_id, "impact")
    )
    created_at = _instant(row, "created_at", incident_id, required=True)
    started_at = _instant(row, "started_at", incident_id, planned=is_maintenance) or created_at
    resolved_at = _instant(row, "resolved_at", incident_id)
    if resolved_at is not None and resolved_at < started_at:
        raise _refused(incident_id, "resolved_at", _("The resolution cannot come before the start."))
    updates = tuple(
        _parse_update(update, incident_id, maintenance=is_maintenance)
        for update in _list(row, "incident_updates", incident_id)
    )
    names = []
    for component in _list(row, "components", incident_id):
        if not isinstance(component, dict):
            raise _refused(incident_id, "components", _("every component must be an object"))
        names.append(_text(component, "name", incident_id, limit=200).strip())
    return ImportedIncident(
        statuspage_id=incident_id,
        name=_title(row, incident_id),
        kind=IncidentKind.MAINTENANCE if is_maintenance else IncidentKind.INCIDENT,
        status=status,
        impact=impact,
        created_at=created_at,
        updated_at=_instant(row, "updated_at", incident_id) or created_at,
        started_at=started_at,
        monitoring_at=_instant(row, "monitoring_at", incident_id),
        resolved_at=resolved_at,
        scheduled_for=_instant(row, "scheduled_for", incident_id, planned=True),
        scheduled_until=_instant(row, "scheduled_until", incident_id, planned=True),
        component_names=tuple(names),
        updates=updates,
        postmortem_body=_text(row, "postmortem_body", incident_id, required=False),
        postmortem_published_at=_instant(row, "postmortem_published_at", incident_id),
    )


def _parse_update(row: object, incident_id: str, *, maintenance: bool) -> ImportedUpdate:
    if not isinstance(row, dict):
        raise _refused(incident_id, "incident_updates", _("every update must be an object"))
    update_id = _text(row, "id", incident_id, limit=64).strip()
    field_prefix = f"incident_updates[{update_id}]"
    status = row.get("status")
    status = "resolved" if status == "postmortem" else status
    _choice(status, IncidentStatus.values, incident_id, f"{field_prefix}.status")
    created_at = _instant(row, "created_at", incident_id, required=True)
    affected = []
    field_name = f"{field_prefix}.affected_components"
    for change in _list(row, "affected_components", incident_id, field_name=field_name):
        if not isinstance(change, dict):
            raise _refused(incident_id, field_name, _("must be objects"))
        affected.append(
            AffectedComponent(
                name=_text(change, "name", incident_id, limit=200).strip(),
                old_status=_choice(
                    change.get("old_status") or "operational",
                    ComponentStatus.values,
                    incident_id,
                    f"{field_name}.old_status",
                ),
                new_status=_choice(
                    change.get("new_status"),
                    ComponentStatus.values,
                    incident_id,
                    f"{field_name}.new_status",
                ),
            )
        )
    return ImportedUpdate(
        statuspage_id=update_id,
        status=status,
        body=_text(row, "body", incident_id, required=False),
        display_at=_instant(row, "display_at", incident_id) or created_at,
        created_at=created_at,
        updated_at=_instant(row, "updated_at", incident_id) or created_at,
        affected=tuple(affected),
    )
