"""The body of a sample import: {"samples": [{"at": "...", "value": 12.5}, ...]}.

An error names the sample by its index: {"samples": {"3": {"at": ["..."]}}}.
"""

import datetime as dt
import math

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from incidents.services.sample_import import MAX_IMPORTED_SAMPLES
from incidents.validation.instants import check_happened, parse_instant

from .strict import ApiSerializer


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
        check_happened(at)
        return at

    def to_representation(self, value):
        return value.isoformat()


class ImportedSampleSerializer(ApiSerializer):
    at = HappenedInstantField(help_text=_("When it was measured: any time since 1970, not in the future."))
    value = StrictNumberField()

    def validate_value(self, value):
        metric = self.context.get("metric")
        if metric is not None:
            try:
                metric.validate_value(value)
            except DjangoValidationError as invalid:
                raise serializers.ValidationError(invalid.messages) from None
        return value


class SampleImportSerializer(ApiSerializer):
    samples = serializers.ListField(
        child=ImportedSampleSerializer(),
        min_length=1,
        max_length=MAX_IMPORTED_SAMPLES,
        help_text=_("At most %(limit)s samples; one already stored at the same instant is skipped.")
        % {"limit": MAX_IMPORTED_SAMPLES},
    )

    def validate_samples(self, samples):
        seen = {}
        for index, sample in enumerate(samples):
            if sample["at"] in seen:
                raise serializers.ValidationError(
                    {
                        str(index): {
                            "at": [_("The same time as sample %(index)s.") % {"index": seen[sample["at"]]}]
                        }
                    }
                )
            seen[sample["at"]] = index
        return samples


class SampleImportResultSerializer(ApiSerializer):
    imported = serializers.IntegerField(help_text=_("Samples stored."))
    skipped = serializers.IntegerField(help_text=_("Samples already stored at the same instant."))
