"""Query parameters of the list endpoints, validated like bodies (a bad value is a 400, not a 500)."""

from rest_framework import serializers

from incidents.models import (
    ActionItemState,
    Channel,
    ComponentStatus,
    IncidentKind,
    IncidentStatus,
    Outcome,
    PostmortemState,
    ProbeKind,
    RunState,
    Subject,
)


class IncidentFilters(serializers.Serializer):
    status = serializers.ChoiceField(choices=IncidentStatus.choices, required=False)
    kind = serializers.ChoiceField(choices=IncidentKind.choices, required=False)
    component = serializers.CharField(required=False, max_length=50, help_text="A component id or slug.")
    published = serializers.BooleanField(required=False, allow_null=True, default=None)
    started_after = serializers.DateTimeField(required=False)
    started_before = serializers.DateTimeField(required=False)


class ComponentFilters(serializers.Serializer):
    status = serializers.ChoiceField(choices=ComponentStatus.choices, required=False)
    group = serializers.CharField(required=False, max_length=50, help_text="A group id or slug.")


class MetricFilters(serializers.Serializer):
    component = serializers.CharField(required=False, max_length=50, help_text="A component id or slug.")


class SampleFilters(serializers.Serializer):
    metric = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    outcome = serializers.ChoiceField(choices=Outcome.choices, required=False)
    after = serializers.DateTimeField(required=False)
    before = serializers.DateTimeField(required=False)


class PostmortemFilters(serializers.Serializer):
    incident = serializers.CharField(required=False, max_length=50, help_text="An incident id.")
    state = serializers.ChoiceField(choices=PostmortemState.choices, required=False)


class ActionItemFilters(serializers.Serializer):
    postmortem = serializers.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    state = serializers.ChoiceField(choices=ActionItemState.choices, required=False)


class AuditEventFilters(serializers.Serializer):
    subject_type = serializers.ChoiceField(choices=Subject.choices, required=False)
    action = serializers.CharField(required=False, max_length=64)
    incident = serializers.CharField(required=False, max_length=50, help_text="An incident id.")
    after = serializers.DateTimeField(required=False)
    before = serializers.DateTimeField(required=False)


# --- probes and subscribers ---


class ProbeFilters(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ProbeKind.choices, required=False)
    enabled = serializers.BooleanField(required=False, allow_null=True, default=None)
    component = serializers.CharField(required=False, max_length=50, help_text="A component id or slug.")


class ProbeRunFilters(serializers.Serializer):
    probe = serializers.CharField(required=False, max_length=50, help_text="A probe id.")
    state = serializers.ChoiceField(choices=RunState.choices, required=False)
    after = serializers.DateTimeField(required=False, help_text="Runs scheduled at or after this time.")
    before = serializers.DateTimeField(required=False, help_text="Runs scheduled before this time.")


class SubscriberFilters(serializers.Serializer):
    channel = serializers.ChoiceField(choices=Channel.choices, required=False)
    confirmed = serializers.BooleanField(required=False, allow_null=True, default=None)
    email = serializers.CharField(required=False, max_length=254, help_text="An exact address (any case).")
    component = serializers.CharField(required=False, max_length=50, help_text="A component id or slug.")
