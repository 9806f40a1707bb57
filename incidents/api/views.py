"""Our REST API (/api/v1/): components, metrics, samples, the audit trail and API tokens."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.response import Response

from incidents.models import (
    ApiToken,
    AuditEvent,
    Component,
    ComponentGroup,
    Metric,
    Sample,
)
from incidents.roles import can_respond, can_view_drafts
from incidents.services.api_tokens import issue_token, revoke_token
from incidents.services.components import set_component_status

from . import filters
from . import serializers as s
from .base import ERRORS, ApiViewSet, ByPublicId, ServiceCrudViewSet


class ComponentGroupViewSet(ByPublicId, ServiceCrudViewSet):
    queryset = ComponentGroup.objects.all()
    serializer_class = s.ComponentGroupSerializer
    ordering_fields = ["position", "slug", "created_at", "updated_at"]


class ComponentViewSet(ByPublicId, ServiceCrudViewSet):
    queryset = Component.objects.select_related("group")
    serializer_class = s.ComponentSerializer
    ordering_fields = ["position", "slug", "status", "created_at", "updated_at"]
    filterset_class = filters.ComponentFilters
    action_write_permissions = {"set_status": can_respond}

    @extend_schema(request=s.ComponentStatusSerializer, responses={200: s.ComponentSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="status")
    def set_status(self, request, *args, **kwargs):
        """Sets a component's status by hand (recorded in its status history and the audit trail)."""
        component = self.get_object()
        serializer = self.valid_body(s.ComponentStatusSerializer)
        set_component_status(component, actor=request.user, **serializer.validated_data)
        component.refresh_from_db()
        return self.respond(component)


class MetricViewSet(ServiceCrudViewSet):
    queryset = Metric.objects.select_related("component", "probe", "health")
    serializer_class = s.MetricSerializer
    ordering_fields = ["position", "slug", "created_at", "updated_at", "latest_at"]
    filterset_class = filters.MetricFilters


class SampleViewSet(mixins.ListModelMixin, ApiViewSet):
    queryset = Sample.objects.all()
    serializer_class = s.SampleSerializer
    ordering_fields = ["at"]
    ordering = ["-at", "-id"]
    filterset_class = filters.SampleFilters


class AuditEventViewSet(mixins.ListModelMixin, ApiViewSet):
    queryset = AuditEvent.objects.select_related("actor", "incident")
    serializer_class = s.AuditEventSerializer
    ordering_fields = ["at"]
    ordering = ["-at", "-id"]
    filterset_class = filters.AuditEventFilters


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
        serializer = self.valid_body(s.ApiTokenSerializer)
        issuer = request.auth if isinstance(request.auth, ApiToken) else None
        token, secret = issue_token(
            request.user, actor=request.user, issuer=issuer, **serializer.validated_data
        )
        token.token = secret
        return Response(s.IssuedTokenSerializer(token).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None, **ERRORS, 404: OpenApiResponse(description=_("No such token"))})
    def destroy(self, request, *args, **kwargs):
        revoke_token(get_object_or_404(self.get_queryset(), pk=kwargs["pk"]), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
