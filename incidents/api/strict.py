"""Base serializers of our API: a body naming a field the serializer does not have is refused,
and so is a time without its offset.

DRF ignores unknown keys, so a typo (`"impcat"`) or a field of another resource would be
accepted and the write would go ahead without it; and it reads "2026-03-01T10:00" as a time in
the server's zone, which the sender may not have meant. Every serializer of /api/v1/ derives from
these, nested ones included; fields the serializer shows but does not take (read-only ones)
are known and ignored, so a body read from the API can be sent back.
"""

import datetime as dt
from collections.abc import Mapping

from django.http import QueryDict
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

# Sent by HTML forms (the browsable API), never a field of ours.
FORM_KEYS = frozenset({"csrfmiddlewaretoken"})


def _field_name(key: str, *, from_form: bool) -> str:
    # HTML forms name list items and nested fields "components[0]" and "sections.impact".
    return key.split("[", 1)[0].split(".", 1)[0] if from_form else key


class RejectUnknownFields:
    """Refuses, with 400 `{"name": ["Unknown field."]}`, every key that is not a field."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            from_form = isinstance(data, QueryDict)
            unknown = sorted(
                str(key)
                for key in data
                if str(key) not in FORM_KEYS and _field_name(str(key), from_form=from_form) not in self.fields
            )
            if unknown:
                raise serializers.ValidationError({name: [_("Unknown field.")] for name in unknown})
        return super().to_internal_value(data)


def lacks_offset(value: object) -> bool:
    """Whether `value` is an ISO 8601 date or time without its UTC offset ("2026-03-01T10:00")."""
    if not isinstance(value, str):
        return False
    try:
        parsed = dt.datetime.fromisoformat(value.strip())
    except ValueError:
        return False  # not a time at all: the field says so
    return parsed.tzinfo is None


class RequireOffsets:
    """Refuses, with 400 naming the field, a time sent without its offset."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping):
            naive = [
                name
                for name, field in self.fields.items()
                if isinstance(field, serializers.DateTimeField)
                and not field.read_only
                and lacks_offset(data.get(name))
            ]
            if naive:
                message = _("Give the time with its UTC offset, such as 2026-03-01T10:00:00Z or +02:00.")
                raise serializers.ValidationError({name: [message] for name in naive})
        return super().to_internal_value(data)


class ApiSerializer(RejectUnknownFields, RequireOffsets, serializers.Serializer):
    pass


class ApiModelSerializer(RejectUnknownFields, RequireOffsets, serializers.ModelSerializer):
    pass
