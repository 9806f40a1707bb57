"""Our REST API (/api/v1/): incidents, their updates, postmortems and action items."""

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.response import Response

from incidents.lifecycle.edits import edit_incident, publish_incident
from incidents.lifecycle.opening import open_event
from incidents.lifecycle.postmortems import publish_postmortem, unpublish_postmortem, write_postmortem
from incidents.lifecycle.updates import post_update, reopen_incident, resolve_incident
from incidents.models import (
    ActionItem,
    ComponentChange,
    Incident,
    IncidentUpdate,
    Postmortem,
)
from incidents.roles import can_respond
from incidents.selectors.deliveries import update_deliveries

from . import filters
from . import incident_serializers as s
from .base import ERRORS, STALE, ApiViewSet, ByPublicId, ServiceCrudViewSet
from .delivery_serializers import UpdateDeliveriesSerializer, update_deliveries_data


def incidents_with_timelines():
    updates = IncidentUpdate.objects.timeline().select_related("author", "incident")
    updates = updates.prefetch_related(
        Prefetch("component_changes", queryset=ComponentChange.objects.select_related("component"))
    )
    return Incident.objects.prefetch_related(Prefetch("updates", queryset=updates), "components", "related")


@extend_schema_view(
    retrieve=extend_schema(responses={200: s.IncidentSerializer}),
)
class IncidentViewSet(ByPublicId, mixins.ListModelMixin, ApiViewSet):
    queryset = incidents_with_timelines()
    serializer_class = s.IncidentSerializer
    ordering_fields = ["started_at", "created_at", "updated_at", "resolved_at", "scheduled_for"]
    ordering = ["-started_at", "-id"]
    filterset_class = filters.IncidentFilters
    write_permission = staticmethod(can_respond)
    request_serializers = {
        "create": s.IncidentCreateSerializer,
        "partial_update": s.IncidentEditSerializer,
        "updates": s.UpdateCreateSerializer,
        "resolve": s.ResolveSerializer,
        "reopen": s.CloseSerializer,
    }
    http_method_names = ["get", "post", "patch", "head", "options"]

    def fresh(self, incident: Incident):
        return self.respond(incidents_with_timelines().get(pk=incident.pk))

    @extend_schema(request=s.IncidentCreateSerializer, responses={201: s.IncidentSerializer, **ERRORS})
    def create(self, request, *args, **kwargs):
        """Declares an incident or schedules maintenance, with its first update."""
        serializer = self.valid_body(s.IncidentCreateSerializer)
        incident = open_event(serializer.command(), actor=request.user)
        return self.respond(
            incidents_with_timelines().get(pk=incident.pk), status_code=status.HTTP_201_CREATED
        )

    @extend_schema(request=s.IncidentEditSerializer, responses={200: s.IncidentSerializer, **ERRORS, **STALE})
    def partial_update(self, request, *args, **kwargs):
        """Changes the title (translations), impact, display time zone, start or resolution time."""
        serializer = self.valid_body(s.IncidentEditSerializer)
        current = self.checked_for_write(request, serializer.validated_data.get("version"))
        s.check_backfilled_unchanged(current, serializer.validated_data)
        command = serializer.command(expected_version=current.version)
        incident = edit_incident(current, command, actor=request.user)
        return self.fresh(incident)

    @extend_schema(methods=["GET"], responses={200: s.UpdateSerializer(many=True), **ERRORS})
    @extend_schema(
        methods=["POST"],
        request=s.UpdateCreateSerializer,
        responses={201: s.UpdateSerializer, **ERRORS, **STALE},
    )
    @action(detail=True, methods=["get", "post"], url_path="updates", pagination_class=None)
    def updates(self, request, *args, **kwargs):
        """The timeline, newest first; POST adds an update (the incident takes its status)."""
        if request.method == "GET":
            updates = self.get_object().updates.all()
            return Response(
                s.UpdateSerializer(updates, many=True, context=self.get_serializer_context()).data
            )
        serializer = self.valid_body(s.UpdateCreateSerializer)
        current = self.checked_for_write(request, serializer.validated_data.get("version"))
        update = post_update(
            current, serializer.command(expected_version=current.version), actor=request.user
        )
        return self.respond(update, serializer_class=s.UpdateSerializer, status_code=status.HTTP_201_CREATED)

    @extend_schema(
        parameters=[
            OpenApiParameter("update_id", str, OpenApiParameter.PATH, description="The update's id.")
        ],
        responses={200: UpdateDeliveriesSerializer, **ERRORS},
    )
    @action(
        detail=True,
        methods=["get"],
        url_path=r"updates/(?P<update_id>[^/.]+)/deliveries",
        pagination_class=None,
    )
    def deliveries(self, request, *args, update_id: str, **kwargs):
        """Who was told about one update: its deliveries queued, sent and failed, per channel."""
        update = get_object_or_404(self.get_object().updates.all(), public_id=update_id)
        return Response(update_deliveries_data(update.public_id, update_deliveries(update)))

    @extend_schema(request=s.ResolveSerializer, responses={200: s.IncidentSerializer, **ERRORS, **STALE})
    @action(detail=True, methods=["post"])
    def resolve(self, request, *args, **kwargs):
        """Resolves (or completes): its components go back to operational unless another open
        incident, a maintenance window, a probe or an alert holds them (`held_by` says which)."""
        return self._close_or_reopen(request, s.ResolveSerializer, resolve_incident)

    @extend_schema(request=s.CloseSerializer, responses={200: s.IncidentSerializer, **ERRORS, **STALE})
    @action(detail=True, methods=["post"])
    def reopen(self, request, *args, **kwargs):
        """Reopens a resolved incident as investigating (maintenance as in progress)."""
        return self._close_or_reopen(request, s.CloseSerializer, reopen_incident)

    def _close_or_reopen(self, request, serializer_class, run):
        serializer = self.valid_body(serializer_class)
        current = self.checked_for_write(request, serializer.validated_data.get("version"))
        run(current, serializer.command(expected_version=current.version), actor=request.user)
        return self.fresh(current)

    @extend_schema(request=None, responses={200: s.IncidentSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def publish(self, request, *args, **kwargs):
        """Makes a draft incident public."""
        incident = publish_incident(self.get_object(), actor=request.user)
        return self.fresh(incident)


class PostmortemViewSet(mixins.ListModelMixin, ApiViewSet):
    queryset = Postmortem.objects.select_related("incident")
    serializer_class = s.PostmortemSerializer
    ordering_fields = ["created_at", "updated_at", "published_at"]
    ordering = ["-created_at", "-id"]
    filterset_class = filters.PostmortemFilters
    write_permission = staticmethod(can_respond)
    request_serializers = {
        "create": s.PostmortemCreateSerializer,
        "partial_update": s.PostmortemWriteSerializer,
        "publish": s.PostmortemPublishSerializer,
    }
    http_method_names = ["get", "post", "patch", "head", "options"]

    @extend_schema(
        request=s.PostmortemCreateSerializer,
        responses={201: s.PostmortemSerializer, **ERRORS, 409: STALE[409]},
    )
    def create(self, request, *args, **kwargs):
        """Writes one language of an incident's postmortem, creating the postmortem if needed."""
        serializer = self.valid_body(s.PostmortemCreateSerializer)
        command = serializer.command(expected_version=serializer.validated_data.get("version"))
        postmortem = write_postmortem(serializer.validated_data["incident"], command, actor=request.user)
        return self.respond(postmortem, status_code=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.PostmortemWriteSerializer, responses={200: s.PostmortemSerializer, **ERRORS, **STALE}
    )
    def partial_update(self, request, *args, **kwargs):
        """Writes one language (a translation) of the postmortem's sections."""
        serializer = self.valid_body(s.PostmortemWriteSerializer)
        current = self.checked_for_write(request, serializer.validated_data.get("version"))
        command = serializer.command(expected_version=current.version)
        postmortem = write_postmortem(current.incident, command, actor=request.user)
        return self.respond(postmortem)

    @extend_schema(request=s.PostmortemPublishSerializer, responses={200: s.PostmortemSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def publish(self, request, *args, **kwargs):
        """Publishes the postmortem, at `published_at` when given (now by default)."""
        serializer = self.valid_body(s.PostmortemPublishSerializer)
        postmortem = publish_postmortem(
            self.get_object(), actor=request.user, published_at=serializer.validated_data.get("published_at")
        )
        return self.respond(postmortem)

    @extend_schema(request=None, responses={200: s.PostmortemSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def unpublish(self, request, *args, **kwargs):
        postmortem = unpublish_postmortem(self.get_object(), actor=request.user)
        return self.respond(postmortem)


class ActionItemViewSet(ServiceCrudViewSet):
    queryset = ActionItem.objects.select_related("owner", "postmortem__incident")
    serializer_class = s.ActionItemSerializer
    ordering_fields = ["position", "due_date", "created_at", "updated_at"]
    filterset_class = filters.ActionItemFilters
    write_permission = staticmethod(can_respond)
