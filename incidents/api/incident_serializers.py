"""Serializers of incidents, their updates, postmortems and action items (the API's incident
views); the write serializers build the lifecycle's commands."""

from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from incidents.lifecycle.commands import (
    DeclareIncident,
    EditIncident,
    EnterRecord,
    PostUpdate,
    ReopenIncident,
    ResolveIncident,
    ScheduleMaintenance,
    WritePostmortem,
    command_from,
)
from incidents.lifecycle.edits import MOVE_REASON_MAX
from incidents.lifecycle.postmortems import save_action_item
from incidents.models import (
    MAX_KEY_FIGURES,
    SECTIONS,
    ActionItem,
    Component,
    ComponentStatus,
    Impact,
    Incident,
    IncidentKind,
    IncidentStatus,
    IncidentUpdate,
    Postmortem,
)
from incidents.public.durations import resolved_duration_seconds
from incidents.roles import staff_users
from incidents.validation.instants import check_happened, check_planned
from incidents.validation.texts import check_title, check_titles
from incidents.validation.time_zones import check_time_zone

from .key_figure_serializers import KeyFigureReadSerializer, KeyFigureSerializer
from .serializers import (
    LANGUAGE_CHOICES,
    MAX_POSITION,
    MAX_TEXT,
    PublicIdField,
    RelatedBySlug,
    TranslationsField,
    actor,
)
from .strict import ApiModelSerializer, ApiSerializer


class ComponentChangeSerializer(ApiSerializer):
    component = serializers.CharField(source="component.public_id")
    old_status = serializers.ChoiceField(choices=ComponentStatus.choices)
    new_status = serializers.ChoiceField(choices=ComponentStatus.choices)
    held_by = TranslationsField(
        read_only=True,
        help_text=_(
            "On a resolving update, why the component did not go back to operational (another open "
            "incident, a maintenance window, a probe or an alert holds it), per language; empty otherwise."
        ),
    )


class UpdateSerializer(ApiModelSerializer):
    id = serializers.CharField(source="public_id", read_only=True)
    status = serializers.SerializerMethodField(
        help_text=_("The status this update set; null for a context event, which sets none.")
    )
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

    @extend_schema_field(serializers.ChoiceField(choices=IncidentStatus.choices, allow_null=True))
    def get_status(self, update: IncidentUpdate) -> str | None:
        return update.status or None


class RelatedIncidentsField(serializers.ListField):
    """Incidents named by slug or id, each found, as a list of Incident."""

    child = serializers.CharField(max_length=80)

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 50)
        kwargs.setdefault(
            "help_text", _("Slugs or ids of related incidents; the link shows on both incidents' pages.")
        )
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        names = list(dict.fromkeys(super().to_internal_value(data)))
        found = Incident.objects.filter(Q(slug__in=names) | Q(public_id__in=names))
        by_name = {name: incident for incident in found for name in (incident.slug, incident.public_id)}
        unknown = [name for name in names if name not in by_name]
        if unknown:
            raise serializers.ValidationError(
                _("No incident has the slug or id %(names)s.") % {"names": ", ".join(unknown)}
            )
        return list(dict.fromkeys(by_name[name] for name in names))


class IncidentSerializer(ApiModelSerializer):
    id = serializers.CharField(source="public_id", read_only=True)
    title = TranslationsField(read_only=True)
    components = serializers.SlugRelatedField(slug_field="public_id", many=True, read_only=True)
    related = serializers.SlugRelatedField(
        slug_field="slug", many=True, read_only=True, help_text=_("Slugs of related incidents.")
    )
    display_time_zone = serializers.CharField(
        source="time_zone_name",
        read_only=True,
        help_text=_("The IANA time zone the incident's pages, feeds and mails show its times in."),
    )
    duration_seconds = serializers.SerializerMethodField(
        help_text=_(
            "Whole seconds from started_at to resolved_at; null while the incident is open "
            "(its duration so far is now minus started_at)."
        ),
    )
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
            "related",
            "started_at",
            "monitoring_at",
            "resolved_at",
            "duration_seconds",
            "scheduled_for",
            "scheduled_until",
            "published_at",
            "display_time_zone",
            "is_draft",
            "backfilled",
            "version",
            "created_at",
            "updated_at",
            "updates",
        ]
        read_only_fields = fields

    @extend_schema_field(serializers.IntegerField(allow_null=True, min_value=0))
    def get_duration_seconds(self, incident: Incident) -> int | None:
        return resolved_duration_seconds(incident)


class ComponentStatusChangeSerializer(ApiSerializer):
    component = PublicIdField(queryset=Component.objects.all())
    status = serializers.ChoiceField(choices=ComponentStatus.choices)


def component_statuses(data: dict) -> dict:
    """The body's `components` as the commands take them: status by component."""
    return {change["component"]: change["status"] for change in data.get("components", [])}


def display_time_zone_field() -> serializers.CharField:
    return serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=64,
        validators=[check_time_zone],
        help_text=_("An IANA time zone name (Europe/Moscow, UTC); empty for the status page's zone."),
    )


class IncidentCreateSerializer(ApiSerializer):
    kind = serializers.ChoiceField(choices=IncidentKind.choices, default=IncidentKind.INCIDENT)
    title = serializers.CharField(max_length=300, validators=[check_title])
    language = serializers.ChoiceField(choices=LANGUAGE_CHOICES)
    body = serializers.CharField(
        max_length=MAX_TEXT,
        required=False,
        allow_blank=True,
        help_text=_("The first update's text; without one, no first update is written."),
    )
    impact = serializers.ChoiceField(choices=Impact.choices, default=Impact.MINOR)
    status = serializers.ChoiceField(
        choices=IncidentStatus.choices,
        required=False,
        help_text=_("Its status from the start (investigating, or scheduled for maintenance, by default)."),
    )
    components = ComponentStatusChangeSerializer(many=True, required=False, max_length=200)
    started_at = serializers.DateTimeField(required=False, validators=[check_happened])
    scheduled_for = serializers.DateTimeField(required=False, validators=[check_planned])
    scheduled_until = serializers.DateTimeField(required=False, validators=[check_planned])
    publish = serializers.BooleanField(default=True)
    display_time_zone = display_time_zone_field()
    related = RelatedIncidentsField(required=False)
    backfilled = serializers.BooleanField(
        default=False,
        help_text=_(
            "Enter it as a record of the past: no notifications, current component status "
            "unchanged, its component impact counted on its own days. Set only when declaring."
        ),
    )

    def command(self) -> DeclareIncident | ScheduleMaintenance | EnterRecord:
        """What the body asks for: a record of the past, maintenance, or an incident."""
        data = self.validated_data
        opening = ScheduleMaintenance if data["kind"] == IncidentKind.MAINTENANCE else DeclareIncident
        kind = EnterRecord if data["backfilled"] else opening
        return command_from(kind, data, component_statuses=component_statuses(data))


class IncidentEditSerializer(ApiSerializer):
    title = TranslationsField(required=False, validators=[check_titles])
    related = RelatedIncidentsField(required=False)
    impact = serializers.ChoiceField(choices=Impact.choices, required=False)
    display_time_zone = display_time_zone_field()
    started_at = serializers.DateTimeField(required=False, validators=[check_planned])
    resolved_at = serializers.DateTimeField(
        required=False,
        validators=[check_happened],
        help_text=_("When it was resolved; only for a resolved incident, not before started_at."),
    )
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=MOVE_REASON_MAX,
        help_text=_(
            "Why the start or the end moves: needed (unless you are an admin) to move a published "
            "incident's start or end by more than a day; kept in the audit trail."
        ),
    )
    backfilled = serializers.BooleanField(
        required=False, help_text=_("Set only when declaring: a record stays a record, news stays news.")
    )
    version = serializers.IntegerField(
        required=False, min_value=1, help_text=_("The version you read; a stale one is refused with 409.")
    )

    def command(self, *, expected_version: int) -> EditIncident:
        return command_from(EditIncident, self.validated_data, expected_version=expected_version)


def check_backfilled_unchanged(incident: Incident, data: dict) -> None:
    """A PATCH may send `backfilled` back as it reads, never change it: a record's updates were
    never sent, and news already sent cannot become a record."""
    if "backfilled" in data and data["backfilled"] != incident.backfilled:
        message = _("Whether it is a record of the past is set when declaring and cannot change.")
        raise serializers.ValidationError({"backfilled": [message]})


class UpdateCreateSerializer(ApiSerializer):
    status = serializers.ChoiceField(
        choices=IncidentStatus.choices,
        allow_null=True,
        help_text=_(
            "The incident's new status; null for a context event (a deploy before, a note during "
            "or after), which changes no status."
        ),
    )
    language = serializers.ChoiceField(choices=LANGUAGE_CHOICES)
    body = serializers.CharField(max_length=MAX_TEXT)
    components = ComponentStatusChangeSerializer(many=True, required=False, max_length=200)
    display_at = serializers.DateTimeField(required=False, validators=[check_happened])
    deliver_notifications = serializers.BooleanField(
        required=False,
        help_text=_(
            "Whether subscribers hear of this update: by default yes for a status change, no for a "
            "context event; always false on a record of the past."
        ),
    )
    version = serializers.IntegerField(required=False, min_value=1)

    def command(self, *, expected_version: int) -> PostUpdate:
        data = self.validated_data
        return command_from(
            PostUpdate,
            data,
            body={data["language"]: data["body"]},
            component_statuses=component_statuses(data),
            notify=data.get("deliver_notifications"),
            expected_version=expected_version,
        )


class CloseSerializer(ApiSerializer):
    language = serializers.ChoiceField(choices=LANGUAGE_CHOICES)
    body = serializers.CharField(max_length=MAX_TEXT)
    version = serializers.IntegerField(required=False, min_value=1)

    command_class: type[ReopenIncident | ResolveIncident] = ReopenIncident

    def command(self, *, expected_version: int) -> ReopenIncident | ResolveIncident:
        data = self.validated_data
        body = {data["language"]: data.get("body", "")}
        return command_from(self.command_class, data, body=body, expected_version=expected_version)


class ResolveSerializer(CloseSerializer):
    body = serializers.CharField(
        max_length=MAX_TEXT,
        required=False,
        allow_blank=True,
        help_text=_(
            "The resolving update's text; without one, the default message for resolved (or completed)."
        ),
    )
    display_at = serializers.DateTimeField(
        required=False,
        validators=[check_happened],
        help_text=_("When it was resolved (the resolving update's time); now by default."),
    )

    command_class = ResolveIncident


class PostmortemPublishSerializer(ApiSerializer):
    published_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        validators=[check_happened],
        help_text=_(
            "When the postmortem was published (for one published elsewhere before); now by default."
        ),
    )


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
    key_figures = KeyFigureReadSerializer(many=True, read_only=True)

    class Meta:
        model = Postmortem
        fields = [
            "id",
            "incident",
            "state",
            "original_language",
            "sections",
            "key_figures",
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
    key_figures = serializers.ListField(
        child=KeyFigureSerializer(),
        required=False,
        max_length=MAX_KEY_FIGURES,
        help_text=_("Replaces the postmortem's key figures, labels in `language`, in reading order."),
    )
    version = serializers.IntegerField(required=False, min_value=1)

    def command(self, *, expected_version: int | None) -> WritePostmortem:
        return command_from(WritePostmortem, self.validated_data, expected_version=expected_version)


class PostmortemCreateSerializer(PostmortemWriteSerializer):
    incident = PublicIdField(queryset=Incident.objects.all())


class ActionItemSerializer(ApiModelSerializer):
    title = TranslationsField(validators=[check_titles])
    # Staff only, so a name that is no account and one that is not staff are answered alike.
    owner = RelatedBySlug(slug_field="username", queryset=staff_users(), allow_null=True, required=False)
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
