"""Serializers of a postmortem's key figures."""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from incidents.lifecycle.postmortems import MAX_LABEL, figure_problem
from incidents.models import KeyFigureUnit

from .serializers import TranslationsField
from .strict import ApiSerializer


class KeyFigureSerializer(ApiSerializer):
    label = serializers.CharField(max_length=MAX_LABEL, help_text=_("The label, in the written language."))
    value = serializers.FloatField(help_text=_("Seconds for a duration, bytes for bytes, 99.2 for 99.2 %."))
    unit = serializers.ChoiceField(choices=KeyFigureUnit.choices)

    def to_internal_value(self, data):
        if isinstance(data, dict) and isinstance(data.get("value"), bool):
            raise serializers.ValidationError({"value": _("A key figure's value must be a finite number.")})
        return super().to_internal_value(data)

    def validate(self, attrs):
        problem = figure_problem(attrs)
        if problem:
            raise serializers.ValidationError({"value": problem})
        return attrs


class KeyFigureReadSerializer(ApiSerializer):
    label = TranslationsField(read_only=True)
    value = serializers.FloatField(read_only=True)
    unit = serializers.ChoiceField(choices=KeyFigureUnit.choices, read_only=True)
