"""Serializers of our REST API: validation of request bodies and the shape of responses.

Writes never save models directly: `create`/`update` hand the validated data to the
services, so an API write has the same side effects as the same edit in the editor.
"""

from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from incidents.models import (
    SECTIONS,
    ActionItem,
    AuditEvent,
    Component,
    ComponentGroup,
    ComponentStatus,
    Impact,
    Incident,
    IncidentKind,
    IncidentStatus,
    IncidentUpdate,
    Metric,
    Postmortem,
    Sample,
    TokenScope,
)
from incidents.services.components import save_component, save_group
from incidents.services.metrics import save_metric
from incidents.services.postmortems import save_action_item
from incidents.translation import language_codes
from incidents.validation.instants import check_happened, check_planned

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


# --- component groups, components, metrics, samples ---


class ComponentGroupSerializer(ApiModelSerializer):
    id = serializers.CharField(source="public_id", read_only=True)
    name = TranslationsField()
    description = TranslationsField(required=False)
    position = serializers.IntegerField(min_value=0, max_value=MAX_POSITION, required=False)

    class Meta:
        model = ComponentGroup
        fields = ["id", "slug", "name", "description", "position", "created_at", "updated_at"]
        read_only_fields = ["created_at", "updated_at"]

    def create(self, validated_data):
        return save_group(ComponentGroup(**validated_data), actor=actor(self))

    def update(self, instance, validated_data):
        for name, value in validated_data.items():
            setattr(instance, name, value)
        return save_group(instance, actor=actor(self))


class ComponentSerializer(ApiModelSerializer):
    id = serializers.CharField(source="public_id", read_only=True)
    group = PublicIdField(queryset=ComponentGroup.objects.all(), allow_null=True, required=False)
    name = TranslationsField()
    description = TranslationsField(required=False)
    position = serializers.IntegerField(min_value=0, max_value=MAX_POSITION, required=False)

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
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["status", "status_changed_at", "created_at", "updated_at"]
        extra_kwargs = {"start_date": {"validators": [check_happened]}}

    def create(self, validated_data):
        return save_component(Component(**validated_data), actor=actor(self))

    def update(self, instance, validated_data):
        for name, value in validated_data.items():
            setattr(instance, name, value)
        return save_component(instance, actor=actor(self))


class ComponentStatusSerializer(ApiSerializer):
    status = serializers.ChoiceField(choices=ComponentStatus.choices)
    reason = serializers.CharField(required=False, allow_blank=True, max_length=500)


class MetricSerializer(ApiModelSerializer):
    component = PublicIdField(queryset=Component.objects.all())
    name = TranslationsField()
    position = serializers.IntegerField(min_value=0, max_value=MAX_POSITION, required=False)
    precision = serializers.IntegerField(min_value=0, max_value=6, required=False)
    window = serializers.IntegerField(min_value=1, max_value=1000, required=False)
    expected_interval = serializers.IntegerField(min_value=1, max_value=86_400 * 7, required=False)
    degraded_threshold = serializers.FloatField(
        allow_null=True, required=False, min_value=-1e15, max_value=1e15
    )
    partial_outage_threshold = serializers.FloatField(
        allow_null=True, required=False, min_value=-1e15, max_value=1e15
    )
    major_outage_threshold = serializers.FloatField(
        allow_null=True, required=False, min_value=-1e15, max_value=1e15
    )

    class Meta:
        model = Metric
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
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["latest_value", "latest_at", "created_at", "updated_at"]

    def create(self, validated_data):
        return save_metric(Metric(**validated_data), actor=actor(self))

    def update(self, instance, validated_data):
        for name, value in validated_data.items():
            setattr(instance, name, value)
        return save_metric(instance, actor=actor(self))


class SampleSerializer(ApiModelSerializer):
    class Meta:
        model = Sample
        fields = ["id", "metric", "at", "value", "outcome"]
        read_only_fields = fields


# --- incidents and their updates ---


class ComponentChangeSerializer(ApiSerializer):
    component = serializers.CharField(source="component.public_id")
    old_status = serializers.ChoiceField(choices=ComponentStatus.choices)
    new_status = serializers.ChoiceField(choices=ComponentStatus.choices)


class UpdateSerializer(ApiModelSerializer):
    id = serializers.CharField(source="public_id", read_only=True)
    incident = serializers.CharField(source="incident.public_id", read_only=True)
    body = TranslationsField(read_only=True)
    author = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    component_changes = ComponentChangeSerializer(many=True, read_only=True)

    class Meta:
        model = IncidentUpdate
        fields = [
            "id",
            "incident",
            "status",
            "body",
            "original_language",
            "display_at",
            "created_at",
            "updated_at",
            "author",
            "deliver_notifications",
            "is_backdated",
            "component_changes",
        ]
        read_only_fields = fields


class IncidentSerializer(ApiModelSerializer):
    id = serializers.CharField(source="public_id", read_only=True)
    title = TranslationsField(read_only=True)
    components = serializers.SlugRelatedField(slug_field="public_id", many=True, read_only=True)
    updates = UpdateSerializer(many=True, read_only=True)

    class Meta:
        model = Incident
        fields = [
            "id",
            "slug",
            "kind",
            "title",
            "original_language",
            "impact",
            "status",
            "components",
            "started_at",
            "monitoring_at",
            "resolved_at",
            "scheduled_for",
            "scheduled_until",
            "published_at",
            "is_draft",
            "version",
            "created_at",
            "updated_at",
            "updates",
        ]
        read_only_fields = fields


class ComponentStatusChangeSerializer(ApiSerializer):
    component = PublicIdField(queryset=Component.objects.all())
    status = serializers.ChoiceField(choices=ComponentStatus.choices)


def component_statuses(changes: list[dict]) -> dict:
    return {change["component"]: change["status"] for change in changes}


class IncidentCreateSerializer(ApiSerializer):
    kind = serializers.ChoiceField(choices=IncidentKind.choices, default=IncidentKind.INCIDENT)
    title = serializers.CharField(max_length=300)
    language = serializers.ChoiceField(choices=LANGUAGE_CHOICES)
    body = serializers.CharField(max_length=MAX_TEXT)
    impact = serializers.ChoiceField(choices=Impact.choices, default=Impact.MINOR)
    status = serializers.ChoiceField(choices=IncidentStatus.choices, required=False)
    components = ComponentStatusChangeSerializer(many=True, required=False, max_length=200)
    started_at = serializers.DateTimeField(required=False, validators=[check_happened])
    scheduled_for = serializers.DateTimeField(required=False, validators=[check_planned])
    scheduled_until = serializers.DateTimeField(required=False, validators=[check_planned])
    publish = serializers.BooleanField(default=True)


class IncidentEditSerializer(ApiSerializer):
    title = TranslationsField(required=False)
    impact = serializers.ChoiceField(choices=Impact.choices, required=False)
    version = serializers.IntegerField(
        required=False, min_value=1, help_text=_("The version you read; a stale one is refused with 409.")
    )


class UpdateCreateSerializer(ApiSerializer):
    status = serializers.ChoiceField(choices=IncidentStatus.choices)
    language = serializers.ChoiceField(choices=LANGUAGE_CHOICES)
    body = serializers.CharField(max_length=MAX_TEXT)
    components = ComponentStatusChangeSerializer(many=True, required=False, max_length=200)
    display_at = serializers.DateTimeField(required=False, validators=[check_happened])
    deliver_notifications = serializers.BooleanField(default=True)
    version = serializers.IntegerField(required=False, min_value=1)


class CloseSerializer(ApiSerializer):
    language = serializers.ChoiceField(choices=LANGUAGE_CHOICES)
    body = serializers.CharField(max_length=MAX_TEXT)
    version = serializers.IntegerField(required=False, min_value=1)


class ResolveSerializer(CloseSerializer):
    display_at = serializers.DateTimeField(required=False, validators=[check_happened])


# --- postmortems and action items ---


class SectionsSerializer(ApiSerializer):
    """One language's text of each postmortem section; an empty text removes that translation."""

    def get_fields(self):
        return {
            key: serializers.CharField(
                required=False, allow_blank=True, max_length=MAX_TEXT, help_text=str(label)
            )
            for key, label in SECTIONS
        }


class TranslatedSectionsSerializer(ApiSerializer):
    def get_fields(self):
        return {key: TranslationsField(read_only=True) for key, _label in SECTIONS}


class PostmortemSerializer(ApiModelSerializer):
    incident = serializers.CharField(source="incident.public_id", read_only=True)
    sections = serializers.SerializerMethodField()
    completeness = serializers.SerializerMethodField()

    class Meta:
        model = Postmortem
        fields = [
            "id",
            "incident",
            "state",
            "original_language",
            "sections",
            "completeness",
            "published_at",
            "version",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    @extend_schema_field(TranslatedSectionsSerializer)
    def get_sections(self, postmortem) -> dict:
        return {key: getattr(postmortem, key) for key, _label in SECTIONS}

    @extend_schema_field({"type": "object", "additionalProperties": {"type": "boolean"}})
    def get_completeness(self, postmortem) -> dict:
        return postmortem.completeness()


class PostmortemWriteSerializer(ApiSerializer):
    language = serializers.ChoiceField(choices=LANGUAGE_CHOICES)
    sections = SectionsSerializer()
    version = serializers.IntegerField(required=False, min_value=1)


class PostmortemCreateSerializer(PostmortemWriteSerializer):
    incident = PublicIdField(queryset=Incident.objects.all())


class ActionItemSerializer(ApiModelSerializer):
    title = TranslationsField()
    owner = RelatedBySlug(
        slug_field="username", queryset=get_user_model().objects.all(), allow_null=True, required=False
    )
    owner_name = serializers.CharField(max_length=200, allow_blank=True, required=False)
    position = serializers.IntegerField(min_value=0, max_value=MAX_POSITION, required=False)

    class Meta:
        model = ActionItem
        fields = [
            "id",
            "postmortem",
            "title",
            "owner",
            "owner_name",
            "state",
            "due_date",
            "due_precision",
            "completed_at",
            "is_public",
            "position",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["completed_at", "created_at", "updated_at"]
        extra_kwargs = {"due_date": {"validators": [check_planned]}}

    def create(self, validated_data):
        return save_action_item(ActionItem(**validated_data), actor=actor(self))

    def update(self, instance, validated_data):
        validated_data.pop("postmortem", None)  # an item stays with its postmortem
        for name, value in validated_data.items():
            setattr(instance, name, value)
        return save_action_item(instance, actor=actor(self))


# --- audit trail and tokens ---


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


class IssuedTokenSerializer(ApiTokenSerializer):
    token = serializers.CharField(read_only=True, help_text=_("The secret: shown only in this response."))
