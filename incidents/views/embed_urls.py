"""URLs other sites embed (namespace `embeds`): badges, the widget and the maintenance calendar,
outside the language prefixes (the language is the `lang` parameter)."""

from django.urls import path

from . import embeds

app_name = "embeds"

urlpatterns = [
    path("badge.svg", embeds.page_badge, name="badge"),
    path("components/<slug:slug>/badge.svg", embeds.component_badge, name="component-badge"),
    path("widget/", embeds.widget, name="widget"),
    path("widget.js", embeds.widget_script, name="widget-script"),
    path("maintenance.ics", embeds.page_maintenance_calendar, name="maintenance-ics"),
    path(
        "components/<slug:slug>/maintenance.ics",
        embeds.component_maintenance_calendar,
        name="component-maintenance-ics",
    ),
]
