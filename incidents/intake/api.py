"""Alert intake (/api/v1/intake/alertmanager/ and /grafana/), its rules and the alerts received."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status
from rest_framework.response import Response

from incidents.api.authentication import TokenAuthentication
from incidents.api.base import STALE, ApiViewSet, ByPublicId, ServiceCrudViewSet
from incidents.api.concurrency import check_if_match
from incidents.api.permissions import IntakeToken
from incidents.models import AlertRule, AlertSource, IntakeAlert
from incidents.roles import can_view_drafts

from . import serializers as s
from .receiving import receive_alerts
from .rules import delete_alert_rule


class IntakeViewSet(ApiViewSet):
    """Receives one notification of an alert group. Authenticated by an API token of the
    `intake` scope only (`Authorization: Bearer …`, as Alertmanager's `http_config` sends it)."""

    authentication_classes = [TokenAuthentication]
    permission_classes = [IntakeToken]
    source: AlertSource

    def create(self, request, *args, **kwargs):
        payload = self.get_serializer(data=request.data)
        payload.is_valid(raise_exception=True)
        report = receive_alerts(self.source, payload.validated_data["alerts"])
        return Response(report.as_dict(), status=status.HTTP_200_OK)


@extend_schema(responses={200: s.IntakeReportSerializer})
class AlertmanagerIntakeViewSet(IntakeViewSet):
    source = AlertSource.ALERTMANAGER
    serializer_class = s.AlertmanagerSerializer


@extend_schema(responses={200: s.IntakeReportSerializer})
class GrafanaIntakeViewSet(IntakeViewSet):
    source = AlertSource.GRAFANA
    serializer_class = s.GrafanaSerializer


class AlertRuleViewSet(ByPublicId, mixins.RetrieveModelMixin, ServiceCrudViewSet):
    """Rules that map alert labels to a component and a status (admins write, staff read)."""

    queryset = AlertRule.objects.select_related("component")
    serializer_class = s.AlertRuleSerializer
    ordering_fields = ["position", "name", "created_at"]
    ordering = ["position", "id"]
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    @extend_schema(responses={204: None, 412: STALE[412]})
    def destroy(self, request, *args, **kwargs):
        delete_alert_rule(
            self.get_object(), actor=request.user, check=lambda current: check_if_match(request, current)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


@extend_schema(
    parameters=[
        OpenApiParameter(
            "unknown", bool, description="Only alerts no rule takes (true) or only matched ones."
        ),
        OpenApiParameter("state", str, enum=["firing", "resolved"]),
    ]
)
class IntakeAlertViewSet(ByPublicId, mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet):
    """Every alert received, matched or not (staff read)."""

    queryset = IntakeAlert.objects.select_related("rule", "component", "incident")
    serializer_class = s.IntakeAlertSerializer
    read_permission = staticmethod(can_view_drafts)
    ordering_fields = ["last_received_at", "first_received_at", "name"]
    ordering = ["-last_received_at", "-id"]
    http_method_names = ["get", "head", "options"]

    def get_queryset(self):
        queryset = super().get_queryset()
        unknown = self.request.query_params.get("unknown")
        if unknown in ("true", "false"):
            queryset = queryset.filter(rule__isnull=unknown == "true")
        state = self.request.query_params.get("state")
        if state in ("firing", "resolved"):
            queryset = queryset.filter(state=state)
        return queryset
