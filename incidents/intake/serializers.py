"""Alert payloads as Alertmanager (webhook version 4) and Grafana send them, and alert rules.

The payload serializers accept fields they do not know, unlike the rest of /api/v1/: the
senders are other systems that add fields between releases, and a refused notification would
be an alert lost. What we read is checked as strictly as anywhere else.
"""

import datetime as dt
import hashlib
import json

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from incidents.api.fields import HappenedInstantField, PlannedInstantField
from incidents.api.serializers import actor
from incidents.api.strict import ApiModelSerializer
from incidents.models import AlertRule, AlertState, Component, IntakeAlert

from .labels import check_labels, check_names
from .receiving import ReceivedAlert
from .rules import save_alert_rule

MAX_ALERTS = 1000
# Label lengths are bounded by settings, checked by check_labels.
LABEL_TEXT = serializers.CharField(allow_blank=True, trim_whitespace=False)
ANNOTATION_TEXT = serializers.CharField(allow_blank=True, max_length=20000, trim_whitespace=False)


@extend_schema_field({"type": "string", "format": "date-time", "nullable": True})
class EndsAtField(PlannedInstantField):
    """`endsAt`: when the sender will consider the alert resolved (a planned instant); Alertmanager
    sends 0001-01-01T00:00:00Z while an alert fires, meaning none."""

    def to_internal_value(self, data):
        return None if data in (None, "") else super().to_internal_value(data)

    def bounded(self, at: dt.datetime) -> dt.datetime | None:
        return None if at.year < 1970 else super().bounded(at)

    def to_representation(self, value):
        return value.isoformat() if value else None


class ReceivedAlertSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=AlertState.choices)
    labels = serializers.DictField(child=LABEL_TEXT, allow_empty=False, validators=[check_labels])
    annotations = serializers.DictField(
        child=ANNOTATION_TEXT, required=False, default=dict, validators=[check_names]
    )
    # The sender's own field names, camelCase as Alertmanager and Grafana send them.
    startsAt = HappenedInstantField()
    endsAt = EndsAtField(required=False, allow_null=True)
    generatorURL = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    fingerprint = serializers.RegexField(r"^[0-9A-Za-z_.:-]{1,128}$", required=False, allow_blank=True)

    def validate(self, data) -> ReceivedAlert:
        labels = dict(data["labels"])
        return ReceivedAlert(
            fingerprint=data.get("fingerprint") or _fingerprint_of(labels),
            state=AlertState(data["status"]),
            labels=labels,
            annotations=dict(data.get("annotations") or {}),
            starts_at=data["startsAt"],
            ends_at=data.get("endsAt"),
            generator_url=data.get("generatorURL", ""),
        )


def _fingerprint_of(labels: dict[str, str]) -> str:
    """Senders that give no fingerprint: one stable per label set, as Alertmanager's is."""
    return hashlib.sha256(json.dumps(labels, sort_keys=True).encode()).hexdigest()[:16]


class NotificationSerializer(serializers.Serializer):
    """What both senders share: a status, and the alerts of one group."""

    status = serializers.ChoiceField(choices=AlertState.choices)
    # Each alert validates into a ReceivedAlert.
    alerts = serializers.ListField(child=ReceivedAlertSerializer(), max_length=MAX_ALERTS, allow_empty=True)


class AlertmanagerSerializer(NotificationSerializer):
    version = serializers.CharField(help_text=_('The webhook payload version; "4" is read.'))
    groupKey = serializers.CharField(required=False, allow_blank=True, max_length=2000)

    def validate_version(self, value: str) -> str:
        if value != "4":
            raise serializers.ValidationError(_("Only Alertmanager's webhook payload version 4 is read."))
        return value


class GrafanaSerializer(NotificationSerializer):
    orgId = serializers.IntegerField(required=False)
    title = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class IntakeReportSerializer(serializers.Serializer):
    firing = serializers.IntegerField(help_text=_("Alerts that started firing (or changed rule)."))
    resolved = serializers.IntegerField(help_text=_("Alerts that resolved."))
    repeated = serializers.IntegerField(help_text=_("Alerts already known in that state: nothing changed."))
    unknown = serializers.IntegerField(help_text=_("Alerts no rule takes: kept and listed in the editor."))


class AlertRuleSerializer(ApiModelSerializer):
    id = serializers.CharField(source="public_id", read_only=True)
    component = serializers.SlugRelatedField(slug_field="slug", queryset=Component.objects.all())
    matchers = serializers.ListField(
        child=serializers.CharField(),
        max_length=20,
        help_text=_('Alertmanager label matchers that must all hold, e.g. ["service=\\"webhooks\\""].'),
    )

    class Meta:
        model = AlertRule
        fields = [
            "id",
            "name",
            "source",
            "matchers",
            "component",
            "status",
            "open_incident",
            "position",
            "enabled",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["created_at", "updated_at"]

    def create(self, validated_data):
        return save_alert_rule(AlertRule(**validated_data), actor=actor(self))

    def update(self, instance, validated_data):
        for name, value in validated_data.items():
            setattr(instance, name, value)
        return save_alert_rule(instance, actor=actor(self))


class IntakeAlertSerializer(ApiModelSerializer):
    id = serializers.CharField(source="public_id", read_only=True)
    rule = serializers.SlugRelatedField(slug_field="public_id", read_only=True)
    component = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    incident = serializers.SlugRelatedField(slug_field="public_id", read_only=True)
    unknown = serializers.BooleanField(source="is_unknown", read_only=True)

    class Meta:
        model = IntakeAlert
        fields = [
            "id",
            "source",
            "fingerprint",
            "name",
            "state",
            "labels",
            "annotations",
            "generator_url",
            "starts_at",
            "ends_at",
            "rule",
            "component",
            "status",
            "incident",
            "unknown",
            "first_received_at",
            "last_received_at",
            "times_received",
        ]
        read_only_fields = fields
