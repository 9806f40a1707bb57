"""URLs of both APIs: /api/v1/ (ours), /api/v2/*.json (Statuspage's), the schema and its docs."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter

from incidents.public import statuspage_v2
from incidents.security.browser_policy import with_inline_styles

from . import (
    incident_views,
    intake_views,
    probe_views,
    statuspage_upload,
    statuspage_views,
    subscriber_views,
    views,
)

router = DefaultRouter()
router.register("component-groups", views.ComponentGroupViewSet, basename="component-group")
router.register("components", views.ComponentViewSet, basename="component")
router.register("metrics", views.MetricViewSet, basename="metric")
router.register("samples", views.SampleViewSet, basename="sample")
router.register("incidents", incident_views.IncidentViewSet, basename="incident")
router.register("postmortems", incident_views.PostmortemViewSet, basename="postmortem")
router.register("action-items", incident_views.ActionItemViewSet, basename="action-item")
router.register("audit-events", views.AuditEventViewSet, basename="audit-event")
router.register("tokens", views.ApiTokenViewSet, basename="token")
router.register("probes", probe_views.ProbeViewSet, basename="probe")
router.register("probe-runs", probe_views.ProbeRunViewSet, basename="probe-run")
router.register("subscribers", subscriber_views.SubscriberViewSet, basename="subscriber")
router.register("alert-rules", intake_views.AlertRuleViewSet, basename="alert-rule")
router.register("intake-alerts", intake_views.IntakeAlertViewSet, basename="intake-alert")

statuspage_patterns = [
    path(f"{endpoint}.json", statuspage_views.endpoint_view(endpoint), name=endpoint.replace("/", "-"))
    for endpoint in statuspage_v2.DOCUMENTS
]

urlpatterns = [
    path(
        "v1/imports/statuspage/",
        statuspage_upload.StatuspageImportViewSet.as_view({"post": "create"}),
        name="statuspage-import",
    ),
    path(
        "v1/intake/alertmanager/",
        intake_views.AlertmanagerIntakeViewSet.as_view({"post": "create"}),
        name="intake-alertmanager",
    ),
    path(
        "v1/intake/grafana/",
        intake_views.GrafanaIntakeViewSet.as_view({"post": "create"}),
        name="intake-grafana",
    ),
    path("v1/", include(router.urls)),
    path("v2/", include((statuspage_patterns, "statuspage-v2"))),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file, so the page runs no inline script.
    path(
        "docs/", with_inline_styles(SpectacularSwaggerSplitView.as_view(url_name="api:schema")), name="docs"
    ),
]
