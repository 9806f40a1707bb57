"""Serializer fields for values other systems send: strict JSON numbers and bounded instants."""

import datetime as dt
import math

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from incidents.validation.instants import check_happened, check_planned, parse_instant


@extend_schema_field({"type": "number", "format": "double"})
class StrictNumberField(serializers.Field):
    """A JSON number, finite: strings, booleans and null are refused, not converted."""

    default_error_messages = {
        "invalid": _("The value must be a number."),
        "not_finite": _("The value must be a finite number."),
    }

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        try:
            value = float(data)
        except OverflowError:  # a whole number too large for a float
            self.fail("not_finite")
        if not math.isfinite(value):
            self.fail("not_finite")
        return value

    def to_representation(self, value):
        return value


@extend_schema_field({"type": "string", "format": "date-time"})
class HappenedInstantField(serializers.Field):
    """An ISO 8601 time with its zone, on or after 1970 and not in the future (any age)."""

    default_error_messages = {"invalid": _("Enter an ISO 8601 time with a time zone.")}
    bound = staticmethod(check_happened)

    def to_internal_value(self, data):
        at = parse_instant(data) if isinstance(data, str) else None
        if at is None or timezone.is_naive(at):
            self.fail("invalid")
        try:
            return self.bounded(at)
        except DjangoValidationError as invalid:
            raise serializers.ValidationError(invalid.messages) from None

    def bounded(self, at: dt.datetime) -> dt.datetime | None:
        """The value for `at`, raising Django's ValidationError when it lies outside the bound."""
        self.bound(at)
        return at

    def to_representation(self, value):
        return value.isoformat()


class PlannedInstantField(HappenedInstantField):
    """An ISO 8601 time with its zone, from 1970 to the planning horizon."""

    bound = staticmethod(check_planned)
