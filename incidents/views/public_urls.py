"""URLs of the public status site (namespace `public`): pages and feeds, mounted with a
language prefix (none for the default language)."""

from django.urls import path

from incidents.public import feeds

from . import public
from .public import public_page

app_name = "public"

urlpatterns = [
    path("", public.overview, name="overview"),
    path("incidents/<slug:slug>/", public.incident, name="incident"),
    path("components/<slug:slug>/", public.component, name="component"),
    path("components/<slug:slug>/history.atom", public_page(feeds.atom), name="component-atom"),
    path("components/<slug:slug>/history.rss", public_page(feeds.rss), name="component-rss"),
    path("history/", public.history, name="history"),
    path("history.atom", public_page(feeds.atom), name="history-atom"),
    path("history.rss", public_page(feeds.rss), name="history-rss"),
    path("uptime/", public.uptime, name="uptime"),
    path("maintenance/", public.maintenance, name="maintenance"),
    path("language/<str:code>/", public.choose_language, name="language"),
]
