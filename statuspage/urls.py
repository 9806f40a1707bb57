from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from incidents import feeds
from incidents.security.login_views import admin_login, api_login_patterns
from incidents.views import public
from incidents.views import subscribe as subscribe_views
from incidents.views.public import public_page as public_feed

# --- issue 3 ---
public_patterns = (
    [
        path("", public.overview, name="overview"),
        path("incidents/<slug:slug>/", public.incident, name="incident"),
        path("components/<slug:slug>/", public.component, name="component"),
        path(
            "components/<slug:slug>/history.atom",
            public_feed(feeds.component_atom),
            name="component-atom",
        ),
        path("components/<slug:slug>/history.rss", public_feed(feeds.component_rss), name="component-rss"),
        path("history/", public.history, name="history"),
        path("history.atom", public_feed(feeds.history_atom), name="history-atom"),
        path("history.rss", public_feed(feeds.history_rss), name="history-rss"),
        path("uptime/", public.uptime, name="uptime"),
        path("maintenance/", public.maintenance, name="maintenance"),
        path("language/<str:code>/", public.choose_language, name="language"),
    ],
    "public",
)
# --- end issue 3 ---

urlpatterns = [
    path("admin/login/", admin_login),
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
# --- issue 7 ---
urlpatterns += [
    path("api/", include(("incidents.api.urls", "api"))),
    path("api/v1/auth/", include(api_login_patterns)),
]
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

handler404 = "incidents.views.errors.page_not_found"
