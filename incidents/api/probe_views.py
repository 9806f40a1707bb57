"""Our REST API (/api/v1/): probes (admins write, staff read) and their runs (read only)."""

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status
from rest_framework.decorators import action
from rest_framework.response import Response

from incidents.models import ProbeKind, ProbeRun
from incidents.models.probes import Probe
from incidents.services.probes import delete_probe, issue_push_token, rotate_webhook_secret

from . import filters
from . import probe_serializers as s
from .base import ERRORS, STALE, ApiViewSet, ByPublicId, ServiceCrudViewSet
from .concurrency import check_if_match

NOT_FOUND = {404: OpenApiResponse(description="No such probe")}


@extend_schema_view(
    create=extend_schema(responses={201: s.ProbeSerializer, **ERRORS}),
    partial_update=extend_schema(responses={200: s.ProbeSerializer, **ERRORS, **STALE, **NOT_FOUND}),
)
class ProbeViewSet(ByPublicId, ServiceCrudViewSet):
    """Probes that measure a metric. Secrets are never returned: a push token or a webhook
    signing secret is shown once, by the action that issues it."""

    queryset = Probe.objects.select_related("metric").prefetch_related("regions")
    serializer_class = s.ProbeSerializer
    ordering_fields = ["name", "kind", "interval", "created_at", "updated_at", "next_run_at"]
    ordering = ["name", "id"]
    filterset_class = filters.ProbeFilters
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    @extend_schema(responses={204: None, **ERRORS, **NOT_FOUND, 412: STALE[412]})
    def destroy(self, request, *args, **kwargs):
        """Deletes the probe and its runs; the metric and its samples stay."""
        probe = self.get_object()
        check_if_match(request, probe)
        delete_probe(probe, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _require_kind(self, probe: Probe, kind: ProbeKind) -> None:
        if probe.kind != kind:
            raise serializers.ValidationError(
                {"kind": [_("Only %(kind)s probes have this.") % {"kind": kind.value}]}
            )

    @extend_schema(request=None, responses={201: s.IssuedPushTokenSerializer, **ERRORS, **NOT_FOUND})
    @action(detail=True, methods=["post"], url_path="push-token")
    def push_token(self, request, *args, **kwargs):
        """Issues a new push token (push probes only), replacing the old one. It is shown in this
        response only: we keep its SHA-256."""
        probe = self.get_object()
        self._require_kind(probe, ProbeKind.PUSH)
        token = issue_push_token(probe, actor=request.user)
        body = {"token": token, "push_url": s.receiver_url("push", probe)}
        return Response(s.IssuedPushTokenSerializer(body).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={201: s.IssuedWebhookSecretSerializer, **ERRORS, **NOT_FOUND})
    @action(detail=True, methods=["post"], url_path="webhook-secret")
    def webhook_secret(self, request, *args, **kwargs):
        """Issues a new signing secret for the receipts of a webhook probe, replacing the old one.
        It is shown in this response only."""
        probe = self.get_object()
        self._require_kind(probe, ProbeKind.WEBHOOK)
        secret = rotate_webhook_secret(probe, actor=request.user)
        body = {"secret": secret, "receiver_url": s.receiver_url("webhook", probe)}
        return Response(s.IssuedWebhookSecretSerializer(body).data, status=status.HTTP_201_CREATED)


class ProbeRunViewSet(mixins.ListModelMixin, ApiViewSet):
    """Runs of the probes, newest first (kept for PROBE_RUN_RETENTION_DAYS)."""

    queryset = ProbeRun.objects.select_related("probe")
    serializer_class = s.ProbeRunSerializer
    ordering_fields = ["scheduled_at", "finished_at"]
    ordering = ["-scheduled_at", "-id"]
    filterset_class = filters.ProbeRunFilters
    http_method_names = ["get", "head", "options"]
