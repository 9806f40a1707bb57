"""Reading a Statuspage export (public `incidents.json`, `summary.json`, or the manage API's
incident objects) into checked values, every field checked before anything is written.

Lenient where Statuspage's own clients are: unknown keys are ignored, `postmortem` counts as
resolved, a missing `display_at` is the update's `created_at`. Strict where a record would be
wrong: a missing id, status or time, or a time out of bounds refuses the whole document, naming
the incident and the field path.
"""

import re
from collections import Counter
from collections.abc import Iterator
from functools import partial

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.settings import api_settings

from incidents.api.fields import HappenedInstantField, PlannedInstantField
from incidents.models import ComponentStatus, Impact, IncidentKind, IncidentStatus
from incidents.validation.instants import check_instants
from incidents.validation.json_bodies import UnstorableText, loads_bounded
from incidents.validation.texts import check_title

MAX_DOCUMENT_BYTES = 200 * 1024 * 1024
MAINTENANCE_STATUSES = {"scheduled", "in_progress", "verifying", "completed"}
INCIDENT_PATH = re.compile(r"^(incidents|scheduled_maintenances)\[(\d+)\]\.(.+)$")

happened = partial(HappenedInstantField, default=None, allow_null=True)
planned = partial(PlannedInstantField, default=None, allow_null=True)
text = partial(
    serializers.CharField, required=False, allow_null=True, allow_blank=True, trim_whitespace=False
)
optional = {"required": False, "allow_null": True}


class StatusField(serializers.ChoiceField):
    """An incident or update status; Statuspage's `postmortem` is resolved (with its postmortem)."""

    def __init__(self, **kwargs):
        super().__init__(choices=IncidentStatus.values, **kwargs)

    def to_internal_value(self, data):
        return super().to_internal_value(IncidentStatus.RESOLVED if data == "postmortem" else data)


class NamedSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)


class AffectedComponentSerializer(NamedSerializer):
    old_status = serializers.ChoiceField(choices=ComponentStatus.values, allow_blank=True, **optional)
    new_status = serializers.ChoiceField(choices=ComponentStatus.values)


class UpdateSerializer(serializers.Serializer):
    id = serializers.CharField(max_length=64)
    status = StatusField()
    body = text(max_length=100_000)
    created_at = HappenedInstantField()
    display_at = happened()
    updated_at = happened()
    affected_components = AffectedComponentSerializer(many=True, **optional)

    def validate(self, data: dict) -> dict:
        affected = [
            change | {"old_status": change.get("old_status") or ComponentStatus.OPERATIONAL}
            for change in data.get("affected_components") or []
        ]
        return data | {
            "body": data.get("body") or "",
            "display_at": data["display_at"] or data["created_at"],
            "updated_at": data["updated_at"] or data["created_at"],
            "affected_components": affected,
        }


class IncidentSerializer(serializers.Serializer):
    id = serializers.CharField(max_length=64)
    name = serializers.CharField(max_length=500, validators=[check_title])
    status = StatusField()
    impact = serializers.ChoiceField(choices=[*Impact.values, "maintenance"], allow_blank=True, **optional)
    created_at = HappenedInstantField()
    updated_at = happened()
    started_at = planned()  # a maintenance window's start; any other incident's is checked in validate
    monitoring_at = happened()
    resolved_at = happened()
    scheduled_for = planned()
    scheduled_until = planned()
    incident_updates = UpdateSerializer(many=True, **optional)
    components = NamedSerializer(many=True, **optional)
    postmortem_body = text(max_length=100_000)
    postmortem_published_at = happened()

    def validate(self, data: dict) -> dict:
        maintenance = data["status"] in MAINTENANCE_STATUSES or data.get("impact") == "maintenance"
        started_at = data["started_at"] or data["created_at"]
        if not maintenance:
            check_instants(happened={"started_at": started_at})
        if data["resolved_at"] is not None and data["resolved_at"] < started_at:
            raise ValidationError({"resolved_at": _("The resolution cannot come before the start.")})
        return data | {
            "kind": IncidentKind.MAINTENANCE if maintenance else IncidentKind.INCIDENT,
            "impact": data.get("impact") if data.get("impact") in Impact.values else Impact.NONE,
            "started_at": started_at,
            "updated_at": data["updated_at"] or data["created_at"],
            "incident_updates": data.get("incident_updates") or [],
            "component_names": [component["name"] for component in data.get("components") or []],
            "postmortem_body": data.get("postmortem_body") or "",
        }


class ExportSerializer(serializers.Serializer):
    incidents = IncidentSerializer(many=True, **optional)
    scheduled_maintenances = IncidentSerializer(many=True, **optional)
    components = serializers.ListField(**optional)

    def validate(self, data: dict) -> dict:
        incidents = (data.get("incidents") or []) + (data.get("scheduled_maintenances") or [])
        twice = [
            code for code, count in Counter(incident["id"] for incident in incidents).items() if count > 1
        ]
        if twice:
            raise ValidationError(_("Incident %(id)s appears twice.") % {"id": twice[0]})
        names = [
            row["name"].strip()
            for row in data.get("components") or []
            if isinstance(row, dict) and not row.get("group") and isinstance(row.get("name"), str)
        ]
        return {"incidents": incidents, "component_names": names}


def read_export(data: bytes) -> dict:
    """parse_export of a document's bytes."""
    if len(data) > MAX_DOCUMENT_BYTES:
        raise ValidationError(
            _("The document is larger than %(mb)s MB.") % {"mb": MAX_DOCUMENT_BYTES // 2**20}
        )
    try:
        document = loads_bounded(data)
    except UnstorableText as error:
        raise ValidationError(str(error)) from None
    except (ValueError, UnicodeDecodeError) as error:
        raise ValidationError(_("The document is not JSON: %(error)s") % {"error": error}) from None
    return parse_export(document)


def parse_export(document: object) -> dict:
    """Every incident (and maintenance) of a Statuspage document, checked: `incidents`, each
    with its `kind`, and the `component_names` of a summary. ValidationError names what is wrong."""
    if isinstance(document, list):  # the manage API answers with a bare list
        document = {"incidents": document}
    elif isinstance(document, dict) and "incidents" not in document and "id" in document:
        document = {"incidents": [document]}  # a single manage API incident object
    export = ExportSerializer(data=document)
    if not export.is_valid():
        raise ValidationError([_sentence(path, message, document) for path, message in _flat(export.errors)])
    return export.validated_data


def _flat(errors, path: str = "") -> Iterator[tuple[str, str]]:
    """(field path, message) of DRF's nested errors: `incidents[1].incident_updates[0].status`."""
    if isinstance(errors, str):
        yield path.removeprefix("."), errors
        return
    for key, value in errors.items() if isinstance(errors, dict) else enumerate(errors):
        if isinstance(key, int):
            yield from _flat(value, path if isinstance(value, str) else f"{path}[{key}]")
        else:
            yield from _flat(value, path if key == api_settings.NON_FIELD_ERRORS_KEY else f"{path}.{key}")


def _sentence(path: str, message: str, document: dict) -> str:
    found = INCIDENT_PATH.match(path)
    if found is None:
        return _("%(field)s: %(problem)s") % {"field": path, "problem": message} if path else message
    key, index, field = found.groups()
    code = document[key][int(index)].get("id")
    return _("Incident %(id)s, field %(field)s: %(problem)s") % {
        "id": code.strip() if isinstance(code, str) and code.strip() else f"{key}[{index}]",
        "field": field,
        "problem": message,
    }
