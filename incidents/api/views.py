"""Our REST API (/api/v1/): thin views over the selectors, services and roles."""

from django.conf import settings
from django.db import transaction
from django.db.models import Prefetch, Q
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.filters import OrderingFilter
from rest_framework.generics import get_object_or_404
from rest_framework.response import Response

from incidents.models import (
    ActionItem,
    ApiToken,
    AuditEvent,
    Component,
    ComponentChange,
    ComponentGroup,
    Incident,
    IncidentUpdate,
    Metric,
    Postmortem,
    Sample,
)
from incidents.roles import can_respond, can_view_drafts
from incidents.services.api_tokens import issue_token, revoke_token
from incidents.services.components import set_component_status
from incidents.services.incidents import (
    declare_incident,
    edit_incident,
    post_update,
    publish_incident,
    reopen_incident,
    resolve_incident,
)
from incidents.services.postmortems import publish_postmortem, unpublish_postmortem, write_postmortem

from . import filters
from . import serializers as s
from .concurrency import check_if_match, check_version, etag_for
from .errors import PayloadTooLarge
from .permissions import StaffRole

PUBLIC_ID = "[0-9a-z]+"
ERRORS = {
    400: OpenApiResponse(description="Invalid request: {field: [messages]}"),
    401: OpenApiResponse(description="Not authenticated"),
    403: OpenApiResponse(description="Role or token scope does not allow this"),
}
STALE = {
    409: OpenApiResponse(description="The `version` sent is stale"),
    412: OpenApiResponse(description="If-Match does not match the current ETag"),
}


class ApiViewSet(viewsets.GenericViewSet):
    """Role permissions, body size limit, validated filters and ordering for every resource."""

    permission_classes = [StaffRole]
    filter_backends = [OrderingFilter]
    filter_serializer_class = None

    def initial(self, request, *args, **kwargs):
        # Refused before authentication or parsing, so an oversized body is never read.
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.API_MAX_BODY_BYTES:
            raise PayloadTooLarge()
        super().initial(request, *args, **kwargs)

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        if self.filter_serializer_class is not None and self.action == "list":
            params = self.filter_serializer_class(data=self.request.query_params)
            params.is_valid(raise_exception=True)
            queryset = self.apply_filters(queryset, params.validated_data)
        return queryset

    def apply_filters(self, queryset, params: dict):
        return queryset

    def retrieve(self, request, *args, **kwargs):
        instance = self.get_object()
        return Response(self.get_serializer(instance).data, headers={"ETag": etag_for(instance)})

    # Request bodies per action where they differ from the response (also the browsable API's forms).
    request_serializers: dict = {}

    def get_serializer_class(self):
        return self.request_serializers.get(getattr(self, "action", None), self.serializer_class)

    def respond(self, instance, *, serializer_class=None, status_code=status.HTTP_200_OK):
        serializer_class = serializer_class or self.serializer_class
        data = serializer_class(instance, context=self.get_serializer_context()).data
        return Response(data, status=status_code, headers={"ETag": etag_for(instance)})

    def locked(self):
        """The object of this request, locked until the transaction ends (call inside atomic)."""
        instance = self.get_object()
        return type(instance).objects.select_for_update().get(pk=instance.pk)


class ServiceCrudViewSet(mixins.ListModelMixin, ApiViewSet):
    """Create and edit through a serializer whose save() calls the service; If-Match honoured."""

    http_method_names = ["get", "post", "patch", "head", "options"]

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        instance = serializer.save()
        return self.respond(instance, status_code=status.HTTP_201_CREATED)

    def partial_update(self, request, *args, **kwargs):
        with transaction.atomic():
            current = self.locked()
            check_if_match(request, current)
            serializer = self.get_serializer(current, data=request.data, partial=True)
            serializer.is_valid(raise_exception=True)
            instance = serializer.save()
        return self.respond(instance)


# --- components ---


class ComponentGroupViewSet(ServiceCrudViewSet):
    queryset = ComponentGroup.objects.all()
    serializer_class = s.ComponentGroupSerializer
    lookup_field = "public_id"
    lookup_url_kwarg = "id"
    lookup_value_regex = PUBLIC_ID  # a malformed id is a 404 from the router, before any query
    ordering_fields = ["position", "slug", "created_at", "updated_at"]


@extend_schema_view(list=extend_schema(parameters=[filters.ComponentFilters]))
class ComponentViewSet(ServiceCrudViewSet):
    queryset = Component.objects.select_related("group")
    serializer_class = s.ComponentSerializer
    lookup_field = "public_id"
    lookup_url_kwarg = "id"
    lookup_value_regex = PUBLIC_ID  # a malformed id is a 404 from the router, before any query
    ordering_fields = ["position", "slug", "status", "created_at", "updated_at"]
    filter_serializer_class = filters.ComponentFilters
    action_write_permissions = {"set_status": can_respond}

    def apply_filters(self, queryset, params):
        if "status" in params:
            queryset = queryset.filter(status=params["status"])
        if "group" in params:
            queryset = queryset.filter(Q(group__public_id=params["group"]) | Q(group__slug=params["group"]))
        return queryset

    @extend_schema(request=s.ComponentStatusSerializer, responses={200: s.ComponentSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="status")
    def set_status(self, request, *args, **kwargs):
        """Sets a component's status by hand (recorded in its status history and the audit trail)."""
        component = self.get_object()
        serializer = s.ComponentStatusSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        set_component_status(
            component,
            status=serializer.validated_data["status"],
            reason=serializer.validated_data.get("reason", ""),
            actor=request.user,
        )
        component.refresh_from_db()
        return self.respond(component)


@extend_schema_view(list=extend_schema(parameters=[filters.MetricFilters]))
class MetricViewSet(ServiceCrudViewSet):
    queryset = Metric.objects.select_related("component")
    serializer_class = s.MetricSerializer
    ordering_fields = ["position", "slug", "created_at", "updated_at", "latest_at"]
    filter_serializer_class = filters.MetricFilters

    def apply_filters(self, queryset, params):
        if "component" in params:
            value = params["component"]
            queryset = queryset.filter(Q(component__public_id=value) | Q(component__slug=value))
        return queryset


@extend_schema_view(list=extend_schema(parameters=[filters.SampleFilters]))
class SampleViewSet(mixins.ListModelMixin, ApiViewSet):
    queryset = Sample.objects.all()
    serializer_class = s.SampleSerializer
    ordering_fields = ["at"]
    ordering = ["-at", "-id"]
    filter_serializer_class = filters.SampleFilters

    def apply_filters(self, queryset, params):
        if "metric" in params:
            queryset = queryset.filter(metric_id=params["metric"])
        if "outcome" in params:
            queryset = queryset.filter(outcome=params["outcome"])
        if "after" in params:
            queryset = queryset.filter(at__gte=params["after"])
        if "before" in params:
            queryset = queryset.filter(at__lt=params["before"])
        return queryset


# --- incidents ---


def incidents_with_timelines():
    updates = IncidentUpdate.objects.timeline().select_related("author", "incident")
    updates = updates.prefetch_related(
        Prefetch("component_changes", queryset=ComponentChange.objects.select_related("component"))
    )
    return Incident.objects.prefetch_related(Prefetch("updates", queryset=updates), "components")


@extend_schema_view(
    list=extend_schema(parameters=[filters.IncidentFilters]),
    retrieve=extend_schema(responses={200: s.IncidentSerializer}),
)
class IncidentViewSet(mixins.ListModelMixin, ApiViewSet):
    queryset = incidents_with_timelines()
    serializer_class = s.IncidentSerializer
    lookup_field = "public_id"
    lookup_url_kwarg = "id"
    lookup_value_regex = PUBLIC_ID  # a malformed id is a 404 from the router, before any query
    ordering_fields = ["started_at", "created_at", "updated_at", "resolved_at", "scheduled_for"]
    ordering = ["-started_at", "-id"]
    filter_serializer_class = filters.IncidentFilters
    write_permission = staticmethod(can_respond)
    request_serializers = {
        "create": s.IncidentCreateSerializer,
        "partial_update": s.IncidentEditSerializer,
        "updates": s.UpdateCreateSerializer,
        "resolve": s.ResolveSerializer,
        "reopen": s.CloseSerializer,
    }
    http_method_names = ["get", "post", "patch", "head", "options"]

    def apply_filters(self, queryset, params):
        if "status" in params:
            queryset = queryset.filter(status=params["status"])
        if "kind" in params:
            queryset = queryset.filter(kind=params["kind"])
        if "component" in params:
            value = params["component"]
            queryset = queryset.filter(Q(components__public_id=value) | Q(components__slug=value)).distinct()
        if params.get("published") is not None:
            queryset = queryset.filter(published_at__isnull=not params["published"])
        if "started_after" in params:
            queryset = queryset.filter(started_at__gte=params["started_after"])
        if "started_before" in params:
            queryset = queryset.filter(started_at__lt=params["started_before"])
        return queryset

    def fresh(self, incident: Incident):
        return self.respond(incidents_with_timelines().get(pk=incident.pk))

    @extend_schema(request=s.IncidentCreateSerializer, responses={201: s.IncidentSerializer, **ERRORS})
    def create(self, request, *args, **kwargs):
        """Declares an incident or schedules maintenance, with its first update."""
        serializer = s.IncidentCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        incident = declare_incident(
            component_statuses=s.component_statuses(data.pop("components", [])), actor=request.user, **data
        )
        response = self.fresh(incident)
        response.status_code = status.HTTP_201_CREATED
        return response

    @extend_schema(request=s.IncidentEditSerializer, responses={200: s.IncidentSerializer, **ERRORS, **STALE})
    def partial_update(self, request, *args, **kwargs):
        """Changes the title (translations) or impact."""
        serializer = s.IncidentEditSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        with transaction.atomic():
            current = self.locked()
            check_if_match(request, current)
            check_version(current, data.get("version"))
            incident = edit_incident(
                current,
                actor=request.user,
                expected_version=current.version,
                title=data.get("title"),
                impact=data.get("impact"),
            )
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
            incident = self.get_object()
            return Response(
                s.UpdateSerializer(
                    incident.updates.all(), many=True, context=self.get_serializer_context()
                ).data
            )
        serializer = s.UpdateCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        with transaction.atomic():
            current = self.locked()
            check_if_match(request, current)
            check_version(current, data.get("version"))
            update = post_update(
                current,
                status=data["status"],
                body={data["language"]: data["body"]},
                language=data["language"],
                component_statuses=s.component_statuses(data.get("components", [])),
                display_at=data.get("display_at"),
                deliver_notifications=data["deliver_notifications"],
                actor=request.user,
                expected_version=current.version,
            )
        return self.respond(update, serializer_class=s.UpdateSerializer, status_code=status.HTTP_201_CREATED)

    @extend_schema(request=s.ResolveSerializer, responses={200: s.IncidentSerializer, **ERRORS, **STALE})
    @action(detail=True, methods=["post"])
    def resolve(self, request, *args, **kwargs):
        """Resolves (or completes) and returns its components to their resting status."""
        serializer = s.ResolveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        with transaction.atomic():
            current = self.locked()
            check_if_match(request, current)
            check_version(current, data.get("version"))
            resolve_incident(
                current,
                body={data["language"]: data["body"]},
                language=data["language"],
                display_at=data.get("display_at"),
                actor=request.user,
                expected_version=current.version,
            )
        return self.fresh(current)

    @extend_schema(request=s.CloseSerializer, responses={200: s.IncidentSerializer, **ERRORS, **STALE})
    @action(detail=True, methods=["post"])
    def reopen(self, request, *args, **kwargs):
        """Reopens a resolved incident as investigating (maintenance as in progress)."""
        serializer = s.CloseSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        with transaction.atomic():
            current = self.locked()
            check_if_match(request, current)
            check_version(current, data.get("version"))
            reopen_incident(
                current,
                body={data["language"]: data["body"]},
                language=data["language"],
                actor=request.user,
                expected_version=current.version,
            )
        return self.fresh(current)

    @extend_schema(request=None, responses={200: s.IncidentSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def publish(self, request, *args, **kwargs):
        """Makes a draft incident public."""
        incident = publish_incident(self.get_object(), actor=request.user)
        return self.fresh(incident)


# --- postmortems and action items ---


@extend_schema_view(list=extend_schema(parameters=[filters.PostmortemFilters]))
class PostmortemViewSet(mixins.ListModelMixin, ApiViewSet):
    queryset = Postmortem.objects.select_related("incident")
    serializer_class = s.PostmortemSerializer
    ordering_fields = ["created_at", "updated_at", "published_at"]
    ordering = ["-created_at", "-id"]
    filter_serializer_class = filters.PostmortemFilters
    write_permission = staticmethod(can_respond)
    request_serializers = {
        "create": s.PostmortemCreateSerializer,
        "partial_update": s.PostmortemWriteSerializer,
    }
    http_method_names = ["get", "post", "patch", "head", "options"]

    def apply_filters(self, queryset, params):
        if "incident" in params:
            queryset = queryset.filter(incident__public_id=params["incident"])
        if "state" in params:
            queryset = queryset.filter(state=params["state"])
        return queryset

    @extend_schema(
        request=s.PostmortemCreateSerializer,
        responses={201: s.PostmortemSerializer, **ERRORS, 409: STALE[409]},
    )
    def create(self, request, *args, **kwargs):
        """Writes one language of an incident's postmortem, creating the postmortem if needed."""
        serializer = s.PostmortemCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        postmortem = write_postmortem(
            data["incident"],
            language=data["language"],
            sections=dict(data["sections"]),
            actor=request.user,
            expected_version=data.get("version"),
        )
        return self.respond(postmortem, status_code=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.PostmortemWriteSerializer, responses={200: s.PostmortemSerializer, **ERRORS, **STALE}
    )
    def partial_update(self, request, *args, **kwargs):
        """Writes one language (a translation) of the postmortem's sections."""
        serializer = s.PostmortemWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        with transaction.atomic():
            current = self.locked()
            check_if_match(request, current)
            check_version(current, data.get("version"))
            postmortem = write_postmortem(
                current.incident,
                language=data["language"],
                sections=dict(data["sections"]),
                actor=request.user,
                expected_version=current.version,
            )
        return self.respond(postmortem)

    @extend_schema(request=None, responses={200: s.PostmortemSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def publish(self, request, *args, **kwargs):
        with transaction.atomic():
            postmortem = publish_postmortem(self.locked(), actor=request.user)
        return self.respond(postmortem)

    @extend_schema(request=None, responses={200: s.PostmortemSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def unpublish(self, request, *args, **kwargs):
        with transaction.atomic():
            postmortem = unpublish_postmortem(self.locked(), actor=request.user)
        return self.respond(postmortem)


@extend_schema_view(list=extend_schema(parameters=[filters.ActionItemFilters]))
class ActionItemViewSet(ServiceCrudViewSet):
    queryset = ActionItem.objects.select_related("owner", "postmortem__incident")
    serializer_class = s.ActionItemSerializer
    ordering_fields = ["position", "due_date", "created_at", "updated_at"]
    filter_serializer_class = filters.ActionItemFilters
    write_permission = staticmethod(can_respond)

    def apply_filters(self, queryset, params):
        if "postmortem" in params:
            queryset = queryset.filter(postmortem_id=params["postmortem"])
        if "state" in params:
            queryset = queryset.filter(state=params["state"])
        return queryset


# --- audit trail and tokens ---


@extend_schema_view(list=extend_schema(parameters=[filters.AuditEventFilters]))
class AuditEventViewSet(mixins.ListModelMixin, ApiViewSet):
    queryset = AuditEvent.objects.select_related("actor", "incident")
    serializer_class = s.AuditEventSerializer
    ordering_fields = ["at"]
    ordering = ["-at", "-id"]
    filter_serializer_class = filters.AuditEventFilters

    def apply_filters(self, queryset, params):
        if "subject_type" in params:
            queryset = queryset.filter(subject_type=params["subject_type"])
        if "action" in params:
            queryset = queryset.filter(action=params["action"])
        if "incident" in params:
            queryset = queryset.filter(incident__public_id=params["incident"])
        if "after" in params:
            queryset = queryset.filter(at__gte=params["after"])
        if "before" in params:
            queryset = queryset.filter(at__lt=params["before"])
        return queryset


class ApiTokenViewSet(mixins.ListModelMixin, ApiViewSet):
    """Your own API tokens. The secret is in the creation response only; DELETE revokes."""

    serializer_class = s.ApiTokenSerializer
    write_permission = staticmethod(can_view_drafts)
    request_serializers = {"create": s.ApiTokenSerializer}
    http_method_names = ["get", "post", "delete", "head", "options"]
    ordering_fields = ["created_at"]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ApiToken.objects.none()
        return ApiToken.objects.filter(user=self.request.user)

    @extend_schema(request=s.ApiTokenSerializer, responses={201: s.IssuedTokenSerializer, **ERRORS})
    def create(self, request, *args, **kwargs):
        serializer = s.ApiTokenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token, secret = issue_token(request.user, actor=request.user, **serializer.validated_data)
        token.token = secret
        return Response(s.IssuedTokenSerializer(token).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None, **ERRORS, 404: OpenApiResponse(description=_("No such token"))})
    def destroy(self, request, *args, **kwargs):
        revoke_token(get_object_or_404(self.get_queryset(), pk=kwargs["pk"]), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
