"""The body of a sample import: {"samples": [{"at": "...", "value": 12.5}, ...]}.

An error names the sample by its index: {"samples": {"3": {"at": ["..."]}}}.
"""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from incidents.api.fields import HappenedInstantField, StrictNumberField
from incidents.api.strict import ApiSerializer

from .service import MAX_IMPORTED_SAMPLES


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
