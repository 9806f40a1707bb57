"""Serializers of our REST API: the shared fields, components, metrics, samples, the audit trail
and tokens. Writes go through the services, so an API write has the editor's side effects."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from incidents.models import (
    AuditEvent,
    Component,
    ComponentGroup,
    ComponentStatus,
    Metric,
    Sample,
    TokenScope,
)
from incidents.security.masking import readable_audit_values
from incidents.services.components import save_component, save_group
from incidents.services.metrics import save_metric
from incidents.translation import language_codes
from incidents.validation.instants import check_happened

from .region_serializers import MetricListSerializer, RegionFigureSerializer, region_figures
from .strict import ApiModelSerializer, ApiSerializer

MAX_TEXT = 50_000
MAX_POSITION = 2_147_483_647
LANGUAGE_CHOICES = [(code, code) for code in language_codes()]


@extend_schema_field(
    {
        "type": "object",
        "additionalProperties": {"type": "string", "maxLength": MAX_TEXT},
        "description": "A text per language code (en, ru, es, nb).",
        "example": {"en": "Webhook delivery"},
    }
)
class TranslationsField(serializers.DictField):
    """{language code: text}, only for the languages the site knows."""

    def __init__(self, **kwargs):
        super().__init__(child=serializers.CharField(allow_blank=True, max_length=MAX_TEXT), **kwargs)

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        unknown = sorted(set(value) - set(language_codes()))
        if unknown:
            raise serializers.ValidationError(
                _("Unknown language %(codes)s; use one of %(known)s.")
                % {"codes": ", ".join(unknown), "known": ", ".join(language_codes())}
            )
        return value


class RelatedBySlug(serializers.SlugRelatedField):
    """A related object named by a text field; texts no row can hold are refused before the query."""

    def to_internal_value(self, data):
        if isinstance(data, str) and "\x00" in data:
            self.fail("does_not_exist", slug_name=self.slug_field, value=data.replace("\x00", ""))
        return super().to_internal_value(data)


class PublicIdField(RelatedBySlug):
    def __init__(self, **kwargs):
        super().__init__(slug_field="public_id", **kwargs)


def actor(serializer):
    return serializer.context["request"].user


class ServiceSavedSerializer(ApiModelSerializer):
    """Creates and edits through the subclass's `service`, so an API write has the editor's side effects."""

    def create(self, validated_data):
        return self.service(self.Meta.model(**validated_data), actor=actor(self))

    def update(self, instance, validated_data):
        for name, value in validated_data.items():
            setattr(instance, name, value)
        return self.service(instance, actor=actor(self))


class ComponentGroupSerializer(ServiceSavedSerializer):
    service = staticmethod(save_group)
    id = serializers.CharField(source="public_id", read_only=True)
    name = TranslationsField()
    description = TranslationsField(required=False)

    class Meta:
        model = ComponentGroup
        fields = ["id", "slug", "name", "description", "position", "created_at", "updated_at"]
        read_only_fields = ["created_at", "updated_at"]
        extra_kwargs = {"position": {"max_value": MAX_POSITION}}


class ComponentSerializer(ServiceSavedSerializer):
    service = staticmethod(save_component)
    id = serializers.CharField(source="public_id", read_only=True)
    group = PublicIdField(queryset=ComponentGroup.objects.all(), allow_null=True, required=False)
    name = TranslationsField()
    description = TranslationsField(required=False)

    class Meta:
        model = Component
        fields = [
            "id",
            "slug",
            "group",
            "name",
            "description",
            "position",
            "status",
            "status_mode",
            "status_changed_at",
            "showcase",
            "only_show_if_degraded",
            "start_date",
            "uptime_target",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["status", "status_changed_at", "created_at", "updated_at"]
        extra_kwargs = {
            "start_date": {"validators": [check_happened]},
            "position": {"max_value": MAX_POSITION},
        }


class ComponentStatusSerializer(ApiSerializer):
    status = serializers.ChoiceField(choices=ComponentStatus.choices)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500)


class MetricSerializer(ServiceSavedSerializer):
    service = staticmethod(save_metric)
    component = PublicIdField(queryset=Component.objects.all())
    name = TranslationsField()
    regions = serializers.SerializerMethodField(
        help_text=_(
            "Measured from two regions or more: each region's figures, by name; empty when measured "
            "from one place."
        )
    )
    regions_reporting = serializers.IntegerField(
        source="health.regions_reporting",
        read_only=True,
        allow_null=True,
        help_text=_(
            "How many regions had fresh data at the last evaluation; null when measured from one place."
        ),
    )
    regions_agreeing = serializers.IntegerField(
        source="health.regions_agreeing",
        read_only=True,
        allow_null=True,
        help_text=_(
            "How many of the reporting regions agreed on the metric's status (0 while too few report "
            "for a quorum); null when measured from one place."
        ),
    )

    class Meta:
        model = Metric
        list_serializer_class = MetricListSerializer
        fields = [
            "id",
            "component",
            "slug",
            "name",
            "kind",
            "unit",
            "precision",
            "aggregation",
            "window",
            "expected_interval",
            "higher_is_worse",
            "degraded_threshold",
            "partial_outage_threshold",
            "major_outage_threshold",
            "position",
            "latest_value",
            "latest_at",
            "regions",
            "regions_reporting",
            "regions_agreeing",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["latest_value", "latest_at", "created_at", "updated_at"]
        extra_kwargs = {
            "position": {"max_value": MAX_POSITION},
            "precision": {"max_value": 6},
            "window": {"min_value": 1, "max_value": 1000},
            "expected_interval": {"min_value": 1, "max_value": 86_400 * 7},
            **{
                f"{status}_threshold": {"min_value": -1e15, "max_value": 1e15}
                for status in ("degraded", "partial_outage", "major_outage")
            },
        }

    @extend_schema_field(RegionFigureSerializer(many=True))
    def get_regions(self, metric) -> list:
        return RegionFigureSerializer(region_figures(metric), many=True).data

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if not region_figures(instance):
            data["regions_reporting"] = data["regions_agreeing"] = None
        return data


class SampleSerializer(ApiModelSerializer):
    class Meta:
        model = Sample
        fields = ["id", "metric", "at", "value", "outcome", "imported"]
        read_only_fields = fields


class AuditEventSerializer(ApiModelSerializer):
    actor = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    incident = serializers.SlugRelatedField(slug_field="public_id", read_only=True, allow_null=True)
    before = serializers.JSONField(read_only=True)
    after = serializers.JSONField(read_only=True)

    class Meta:
        model = AuditEvent
        fields = [
            "id",
            "at",
            "actor",
            "actor_label",
            "action",
            "subject_type",
            "subject_id",
            "subject_label",
            "incident",
            "before",
            "after",
        ]
        read_only_fields = fields

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["before"], data["after"] = readable_audit_values(instance)
        return data


class ApiTokenSerializer(ApiSerializer):
    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=100)
    scope = serializers.ChoiceField(choices=TokenScope.choices, default=TokenScope.READ)
    prefix = serializers.CharField(read_only=True)
    created_at = serializers.DateTimeField(read_only=True)
    last_used_at = serializers.DateTimeField(read_only=True, allow_null=True)
    revoked_at = serializers.DateTimeField(read_only=True, allow_null=True)
    expires_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text=_("When the token stops working; empty: never, or when the token that issued it expires."),
    )
    issued_by = serializers.IntegerField(
        source="issued_by_id",
        read_only=True,
        allow_null=True,
        help_text=_("The token this one was issued with, if any: revoking that one revokes this one too."),
    )


class IssuedTokenSerializer(ApiTokenSerializer):
    token = serializers.CharField(read_only=True, help_text=_("The secret: shown only in this response."))
