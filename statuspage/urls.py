from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from incidents import feeds
from incidents.views import public
from incidents.views.public import public_page as public_feed

# --- issue 3 ---
public_patterns = (
    [
        path("", public.overview, name="overview"),
        path("incidents/<slug:slug>/", public.incident, name="incident"),
        path("components/<slug:slug>/", public.component, name="component"),
        path(
            "components/<slug:slug>/history.atom",
            public_feed(feeds.ComponentAtomFeed()),
            name="component-atom",
        ),
        path("components/<slug:slug>/history.rss", public_feed(feeds.ComponentFeed()), name="component-rss"),
        path("history/", public.history, name="history"),
        path("history.atom", public_feed(feeds.HistoryAtomFeed()), name="history-atom"),
        path("history.rss", public_feed(feeds.HistoryFeed()), name="history-rss"),
        path("uptime/", public.uptime, name="uptime"),
        path("maintenance/", public.maintenance, name="maintenance"),
        path("language/<str:code>/", public.choose_language, name="language"),
    ],
    "public",
)
# --- end issue 3 ---

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
]
urlpatterns += i18n_patterns(path("", include(public_patterns)), prefix_default_language=False)
