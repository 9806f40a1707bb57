"""What other sites embed: status badges, the widget and its script, and the maintenance calendar.

An embed is shown to every reader, so one URL gives one document (its language is `lang`)."""

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import conditional_page, require_safe

from incidents import selectors
from incidents.models import Component
from incidents.public import badges
from incidents.public.calendar import maintenance_calendar
from incidents.public.page_cache import cache_control
from incidents.security.browser_policy import embeddable
from incidents.translation import current_language

from .public import public_page

BADGE_MAX_AGE = 60


def _choice(request, name: str, choices, default: str) -> str:
    value = request.GET.get(name, "")
    return value if value in choices else default


def theme_query(request) -> str:
    """The page cache's key part for a widget: its theme, if it names one."""
    theme = _choice(request, "theme", badges.THEMES, "")
    return f"theme={theme}" if theme else ""


def _badge_response(request, badge: badges.Badge, *, status: int = 200) -> HttpResponse:
    svg = badges.render_badge(
        badge,
        theme=_choice(request, "theme", badges.THEMES, "light"),
        size=_choice(request, "style", badges.SIZES, "flat"),
    )
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8", status=status)
    response["Cache-Control"] = cache_control(max_age=BADGE_MAX_AGE)
    return response


@require_safe
@conditional_page
def page_badge(request):
    return _badge_response(request, badges.page_badge())


@require_safe
@conditional_page
def component_badge(request, slug: str):
    found = Component.objects.filter(slug=slug).first()
    if found is None:
        return _badge_response(request, badges.unknown_badge(), status=404)
    return _badge_response(request, badges.component_badge(found, language=current_language()))


@embeddable
@public_page(query=theme_query, live=True)
def widget(request):
    summary = selectors.page_summary()
    theme = _choice(request, "theme", badges.THEMES, "")
    return render(
        request,
        "embeds/widget.html",
        {
            "indicator": summary.indicator,
            "incidents": summary.active_incidents + summary.maintenance_in_progress,
            "theme": theme,
            "site_url": settings.SITE_URL,
            "site_name": settings.STATUS_PAGE_NAME,
            "language": current_language(),
        },
    )


@require_safe
@conditional_page
def widget_script(request):
    """The one-tag embed (static/js/widget.js) at a stable address outside /static/."""
    path = finders.find("js/widget.js")
    if path is None:
        raise Http404
    with open(path, "rb") as script:
        response = HttpResponse(script.read(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = cache_control(max_age=3600)
    response["Access-Control-Allow-Origin"] = "*"
    return response


def _calendar_response(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@public_page
def page_maintenance_calendar(request):
    return _calendar_response(maintenance_calendar(language=current_language()), "maintenance.ics")


@public_page
def component_maintenance_calendar(request, slug: str):
    found = get_object_or_404(Component, slug=slug)
    body = maintenance_calendar(language=current_language(), component=found)
    return _calendar_response(body, f"{found.slug}-maintenance.ics")
