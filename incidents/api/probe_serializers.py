"""Serializers of probes and their runs: secrets (push token hash, webhook secret) never leave,
and credentials (every header value, a password in `config`, every query value of `url`) are
write-only: read back masked like the audit trail, and a masked value sent back keeps the
stored one (`save_probe` puts it back).

Kind-specific settings (`config`, and whether a URL is needed) are validated by the kind's own
module through `save_probe`, whose ValidationErrors come back as field errors.
"""

import json

from django.conf import settings
from django.core.validators import URLValidator
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from incidents.models import Probe, ProbeKind, ProbeRegion, ProbeRun
from incidents.security.masking import masked_probe_fields
from incidents.services.probes import save_probe

from .serializers import RelatedBySlug, ServiceSavedSerializer, actor
from .strict import ApiModelSerializer, ApiSerializer


def receiver_url(name: str, probe: Probe) -> str:
    return settings.SITE_URL + reverse(f"probes:{name}", kwargs={"public_id": probe.public_id})


class ProbeSerializer(ServiceSavedSerializer):
    service = staticmethod(save_probe)
    id = serializers.CharField(source="public_id", read_only=True)
    url = serializers.CharField(
        max_length=500,
        allow_blank=True,
        required=False,
        help_text=_(
            "What the probe calls (empty for push probes); checked against the outbound address guard."
        ),
    )
    config = serializers.JSONField(
        required=False, help_text=_("Settings of this kind of probe (a JSON object), checked by the kind.")
    )
    has_push_token = serializers.SerializerMethodField(
        help_text=_("Whether a push token was issued (the token itself is shown only when issued).")
    )
    receiver_url = serializers.SerializerMethodField(
        help_text=_("Where the monitored system calls us: the push endpoint or the webhook receiver.")
    )
    regions = RelatedBySlug(
        slug_field="name",
        queryset=ProbeRegion.objects.all(),
        many=True,
        required=False,
        help_text=_(
            "Names of the regions the probe runs from; empty for every active region. Push and "
            "webhook probes are measured where the site runs, whatever is chosen."
        ),
    )

    class Meta:
        model = Probe
        fields = [
            "id",
            "name",
            "kind",
            "metric",
            "enabled",
            "url",
            "config",
            "interval",
            "timeout",
            "connect_timeout",
            "read_timeout",
            "has_push_token",
            "receiver_url",
            "regions",
            "next_run_at",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["next_run_at", "created_at", "updated_at"]
        extra_kwargs = {
            "interval": {"min_value": 1, "max_value": 10**7},
            **{
                name: {"min_value": 0, "max_value": 10**6}
                for name in ("timeout", "connect_timeout", "read_timeout")
            },
        }

    def create(self, validated_data):
        regions = validated_data.pop("regions", None)
        return save_probe(Probe(**validated_data), actor=actor(self), regions=regions)

    def update(self, instance, validated_data):
        regions = validated_data.pop("regions", None)
        for name, value in validated_data.items():
            setattr(instance, name, value)
        return save_probe(instance, actor=actor(self), regions=regions)

    def get_has_push_token(self, probe) -> bool:
        return bool(probe.push_token_hash)

    def get_receiver_url(self, probe) -> str | None:
        # The receivers' URL names are the kinds' values.
        return receiver_url(probe.kind, probe) if probe.kind in (ProbeKind.PUSH, ProbeKind.WEBHOOK) else None

    def validate_url(self, value: str) -> str:
        # The format first, so the address guard (run by the kind) only sees parseable URLs.
        if value:
            URLValidator(schemes=["http", "https"], message=_("Enter a valid http or https URL."))(value)
        return value

    def validate_config(self, value):
        # PostgreSQL's jsonb cannot store NUL characters: refuse them here rather than fail there.
        if "\\u0000" in json.dumps(value):
            raise serializers.ValidationError(_("The settings cannot contain NUL characters."))
        return value

    def to_representation(self, instance):
        return masked_probe_fields(super().to_representation(instance))


class IssuedPushTokenSerializer(ApiSerializer):
    token = serializers.CharField(
        read_only=True,
        help_text=_("The push token: shown only in this response (only its SHA-256 is stored)."),
    )
    push_url = serializers.CharField(
        read_only=True, help_text=_("POST samples here with `Authorization: Bearer <token>`.")
    )


class IssuedWebhookSecretSerializer(ApiSerializer):
    secret = serializers.CharField(
        read_only=True,
        help_text=_(
            "The receipt signing secret: shown only in this response; the previous one stops working."
        ),
    )
    receiver_url = serializers.CharField(read_only=True)


class ProbeRunSerializer(ApiModelSerializer):
    probe = serializers.CharField(source="probe.public_id", read_only=True)

    class Meta:
        model = ProbeRun
        fields = [
            "id",
            "probe",
            "state",
            "scheduled_at",
            "deadline",
            "started_at",
            "triggered_at",
            "finished_at",
            "value",
            "detail",
        ]
        read_only_fields = fields
