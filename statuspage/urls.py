"""One URL module per area: public site and subscriptions (with a language prefix), embeds,
editor, APIs, probe receivers, admin."""

from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

from incidents.security.login_views import api_login_patterns
from incidents.views import site_assets, telemetry

urlpatterns = [
    path("admin/", include("incidents.views.admin_urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("favicon.svg", site_assets.favicon, name="favicon"),
    path("favicon.ico", site_assets.favicon_ico, name="favicon-ico"),
    path("robots.txt", site_assets.robots, name="robots"),
    # Badges, widget and calendar: one URL for every reader, the language a parameter.
    path("", include("incidents.views.embed_urls")),
    *i18n_patterns(
        path("", include("incidents.views.public_urls")),
        path("", include("incidents.views.subscribe_urls")),
        prefix_default_language=False,
    ),
    path("editor/", include("incidents.views.editor.urls")),
    path("api/", include(("incidents.api.urls", "api"))),
    path("api/v1/auth/", include(api_login_patterns)),
    path("probes/", include("incidents.views.probe_urls")),
    path("metrics", telemetry.metrics, name="metrics"),
]

handler404 = "incidents.views.errors.page_not_found"
handler500 = "incidents.views.errors.server_error"
