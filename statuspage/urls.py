from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from incidents.views import public
from incidents.views import subscribe as subscribe_views

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

# --- issue 5: the on-call editor ---
urlpatterns += [path("editor/", include("incidents.views.editor.urls", namespace="editor"))]
# --- issue 6 ---
subscribe_patterns = (
    [
        path("subscribe/", subscribe_views.subscribe, name="form"),
        path("subscribe/api/", subscribe_views.api_subscribe, name="api"),
        path("subscribe/webhooks/", subscribe_views.webhooks, name="webhooks"),
        path("subscribe/incidents/<slug:slug>/", subscribe_views.follow, name="follow"),
        path("subscribe/confirm/<str:token>/", subscribe_views.confirm, name="confirm"),
        path("subscribe/manage/<str:token>/", subscribe_views.manage, name="manage"),
        path("subscribe/unsubscribe/<str:token>/", subscribe_views.unsubscribe, name="unsubscribe"),
        path("editor/deliveries/", subscribe_views.deliveries, name="deliveries"),
        path("editor/deliveries/<int:pk>/retry/", subscribe_views.retry_delivery, name="retry-delivery"),
    ],
    "subscribe",
)
urlpatterns += i18n_patterns(path("", include(subscribe_patterns)), prefix_default_language=False)
