"""URLs of both APIs: /api/v1/ (ours), /api/v2/*.json (Statuspage's), the schema and its docs."""

from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import DefaultRouter
from rest_framework.urlpatterns import format_suffix_patterns

from incidents.configuration.api import ConfigurationViewSet
from incidents.importers.samples.api import SampleImportViewSet
from incidents.importers.statuspage.api import StatuspageImportViewSet
from incidents.intake.api import (
    AlertmanagerIntakeViewSet,
    AlertRuleViewSet,
    GrafanaIntakeViewSet,
    IntakeAlertViewSet,
)
from incidents.public import statuspage_v2
from incidents.security.browser_policy import with_inline_styles

from . import (
    incident_views,
    probe_views,
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
router.register("alert-rules", AlertRuleViewSet, basename="alert-rule")
router.register("intake-alerts", IntakeAlertViewSet, basename="intake-alert")

statuspage_patterns = [
    path(f"{endpoint}.json", statuspage_views.endpoint_view(endpoint), name=endpoint.replace("/", "-"))
    for endpoint in statuspage_v2.DOCUMENTS
]

urlpatterns = [
    *format_suffix_patterns(
        [
            re_path(
                r"^v1/metrics/(?P<pk>[^/.]+)/samples/import/$",
                SampleImportViewSet.as_view({"post": "create"}),
                name="metric-import-samples",
            )
        ]
    ),
    path(
        "v1/imports/statuspage/",
        StatuspageImportViewSet.as_view({"post": "create"}),
        name="statuspage-import",
    ),
    path(
        "v1/intake/alertmanager/",
        AlertmanagerIntakeViewSet.as_view({"post": "create"}),
        name="intake-alertmanager",
    ),
    path(
        "v1/intake/grafana/",
        GrafanaIntakeViewSet.as_view({"post": "create"}),
        name="intake-grafana",
    ),
    path("v1/config/", ConfigurationViewSet.as_view({"get": "export"}), name="config"),
    path("v1/config/schema/", ConfigurationViewSet.as_view({"get": "json_schema"}), name="config-schema"),
    path("v1/config/diff/", ConfigurationViewSet.as_view({"post": "diff"}), name="config-diff"),
    path("v1/config/apply/", ConfigurationViewSet.as_view({"post": "apply"}), name="config-apply"),
    path("v1/", include(router.urls)),
    path("v2/", include((statuspage_patterns, "statuspage-v2"))),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file, so the page runs no inline script.
    path(
        "docs/", with_inline_styles(SpectacularSwaggerSplitView.as_view(url_name="api:schema")), name="docs"
    ),
]
