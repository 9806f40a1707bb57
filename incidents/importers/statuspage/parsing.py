"""Reading a Statuspage export (public `incidents.json`, `summary.json`, or the manage API's
incident objects) into checked values, every field checked before anything is written.

Lenient where Statuspage's own clients are: unknown keys are ignored, `postmortem` counts as
resolved, a missing `display_at` is the update's `created_at`. Strict where a record would be
wrong: a missing id, status or time, or a time out of bounds refuses the whole document, naming
the incident and the field path.
"""

import re
from collections.abc import Iterator

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.settings import api_settings

from incidents.api.fields import HappenedInstantField, PlannedInstantField
from incidents.models import ComponentStatus, Impact, IncidentKind, IncidentStatus
from incidents.validation.instants import check_happened
from incidents.validation.json_bodies import UnstorableText, loads_bounded
from incidents.validation.texts import check_title

MAX_DOCUMENT_BYTES = 200 * 1024 * 1024
MAINTENANCE_STATUSES = {"scheduled", "in_progress", "verifying", "completed"}
INCIDENT_PATH = re.compile(r"^(incidents|scheduled_maintenances)\[(\d+)\]\.(.+)$")


def happened() -> HappenedInstantField:
    return HappenedInstantField(default=None, allow_null=True)


def planned() -> PlannedInstantField:
    return PlannedInstantField(default=None, allow_null=True)


def optional_text() -> serializers.CharField:
    return serializers.CharField(
        required=False, allow_null=True, allow_blank=True, max_length=100_000, trim_whitespace=False
    )


class StatusField(serializers.ChoiceField):
    """An incident or update status; Statuspage's `postmortem` is resolved (with its postmortem)."""

    def __init__(self, **kwargs):
        super().__init__(choices=IncidentStatus.values, **kwargs)

    def to_internal_value(self, data):
        return super().to_internal_value(IncidentStatus.RESOLVED if data == "postmortem" else data)


class AffectedComponentSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    old_status = serializers.ChoiceField(
        choices=ComponentStatus.values, required=False, allow_null=True, allow_blank=True
    )
    new_status = serializers.ChoiceField(choices=ComponentStatus.values)


class UpdateSerializer(serializers.Serializer):
    id = serializers.CharField(max_length=64)
    status = StatusField()
    body = optional_text()
    created_at = HappenedInstantField()
    display_at = happened()
    updated_at = happened()
    affected_components = AffectedComponentSerializer(many=True, required=False, allow_null=True)

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


class NamedSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)


class IncidentSerializer(serializers.Serializer):
    id = serializers.CharField(max_length=64)
    name = serializers.CharField(max_length=500)
    status = StatusField()
    impact = serializers.ChoiceField(
        choices=[*Impact.values, "maintenance"], required=False, allow_null=True, allow_blank=True
    )
    created_at = HappenedInstantField()
    updated_at = happened()
    started_at = planned()  # a maintenance window's start; any other incident's is checked in validate
    monitoring_at = happened()
    resolved_at = happened()
    scheduled_for = planned()
    scheduled_until = planned()
    incident_updates = UpdateSerializer(many=True, required=False, allow_null=True)
    components = NamedSerializer(many=True, required=False, allow_null=True)
    postmortem_body = optional_text()
    postmortem_published_at = happened()

    def validate_name(self, value: str) -> str:
        try:
            check_title(value)
        except ValidationError as error:
            raise serializers.ValidationError(error.messages) from None
        return value

    def validate(self, data: dict) -> dict:
        maintenance = data["status"] in MAINTENANCE_STATUSES or data.get("impact") == "maintenance"
        data["kind"] = IncidentKind.MAINTENANCE if maintenance else IncidentKind.INCIDENT
        data["impact"] = data.get("impact") if data.get("impact") in Impact.values else Impact.NONE
        started_at = data["started_at"] or data["created_at"]
        try:
            check_happened(None if maintenance else started_at)
        except ValidationError as error:
            raise serializers.ValidationError({"started_at": error.messages}) from None
        if data["resolved_at"] is not None and data["resolved_at"] < started_at:
            raise serializers.ValidationError(
                {"resolved_at": _("The resolution cannot come before the start.")}
            )
        return data | {
            "started_at": started_at,
            "updated_at": data["updated_at"] or data["created_at"],
            "incident_updates": data.get("incident_updates") or [],
            "component_names": [component["name"] for component in data.get("components") or []],
            "postmortem_body": data.get("postmortem_body") or "",
        }


class ExportSerializer(serializers.Serializer):
    incidents = IncidentSerializer(many=True, required=False, allow_null=True)
    scheduled_maintenances = IncidentSerializer(many=True, required=False, allow_null=True)
    components = serializers.ListField(required=False, allow_null=True)

    def validate(self, data: dict) -> dict:
        incidents = (data.get("incidents") or []) + (data.get("scheduled_maintenances") or [])
        seen = set()
        for incident in incidents:
            if incident["id"] in seen:
                raise serializers.ValidationError(
                    _("Incident %(id)s appears twice.") % {"id": incident["id"]}
                )
            seen.add(incident["id"])
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
    with `kind`, and the `component_names` of a summary. ValidationError names what is wrong."""
    if isinstance(document, list):  # the manage API answers with a bare list
        document = {"incidents": document}
    elif isinstance(document, dict) and "incidents" not in document and "id" in document:
        document = {"incidents": [document]}  # a single manage API incident object
    export = ExportSerializer(data=document)
    if not export.is_valid():
        raise ValidationError([_sentence(path, message, document) for path, message in _flat(export.errors)])
    return export.validated_data


def _flat(errors: object, path: str = "") -> Iterator[tuple[str, str]]:
    """(field path, message) of DRF's nested errors: `incidents[1].incident_updates[0].status`."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            step = (
                f"[{key}]"
                if isinstance(key, int)
                else ""
                if key == api_settings.NON_FIELD_ERRORS_KEY
                else f".{key}"
            )
            yield from _flat(value, path + step)
    elif isinstance(errors, list):
        for index, value in enumerate(errors):
            yield from _flat(value, path + f"[{index}]" if isinstance(value, dict) else path)
    else:
        yield path.lstrip("."), str(errors)


def _sentence(path: str, message: str, document: dict) -> str:
    found = INCIDENT_PATH.match(path)
    if found is None:
        return f"{path}: {message}" if path else message
    key, index, field = found.groups()
    row = document[key][int(index)]
    named = isinstance(row, dict) and isinstance(row.get("id"), str) and row["id"].strip()
    return _("Incident %(id)s, field %(field)s: %(problem)s") % {
        "id": row["id"].strip() if named else f"{key}[{index}]",
        "field": field,
        "problem": message,
    }
