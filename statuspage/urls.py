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

# --- issue 7 ---
urlpatterns += [path("api/", include(("incidents.api.urls", "api")))]
