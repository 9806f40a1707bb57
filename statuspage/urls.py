from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from incidents.views import public

public_patterns = (
    [
        path("", public.overview, name="overview"),
    ],
    "public",
)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
]
urlpatterns += i18n_patterns(path("", include(public_patterns)), prefix_default_language=False)

# --- issue 4 ---
from incidents.views import probes as probe_views  # noqa: E402

probe_patterns = (
    [
        path("webhook/<str:public_id>/", probe_views.webhook_receiver, name="webhook"),
        path("push/<str:public_id>/", probe_views.push_endpoint, name="push"),
    ],
    "probes",
)
urlpatterns += [path("probes/", include(probe_patterns))]
