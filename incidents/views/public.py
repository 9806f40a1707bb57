"""The public status pages: thin views over incidents.selectors and incidents.presentation.

Every page is cached per language (incidents.page_cache) and answers conditional GETs
with 304 (ETag from the content), and none needs JavaScript.
"""

import datetime as dt

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.views.decorators.http import conditional_page, require_safe

from incidents import event_lists, formatting, overview_frame, presentation, selectors
from incidents.models import ComponentStatus, Resolution
from incidents.page_cache import cached_page
from incidents.translation import language_codes

UPTIME_DAYS = presentation.UPTIME_DAYS


def _language() -> str:
    return (get_language() or settings.LANGUAGE_CODE).split("-")[0]


def public_page(view):
    """GET and HEAD only, cached per language, with ETag and 304."""
    return require_safe(conditional_page(cached_page(view)))


@public_page
def overview(request):
    html, etag = overview_frame.overview_html(request, _language())
    response = HttpResponse(html)
    response["ETag"] = etag
    return response


@public_page
def incident(request, slug: str):
    language = _language()
    found = selectors.public_incident(slug)
    return render(
        request,
        "public/incident.html",
        {
            "incident": found,
            "updates": list(found.updates.all()),
            "postmortem": selectors.postmortem_for(found, language),
            "components": list(found.components.all()),
        },
    )


@public_page
def component(request, slug: str):
    language = _language()
    found = selectors.public_component(slug)
    metrics = list(found.metrics.all())
    now = timezone.now()
    hourly = selectors.metric_series(
        metrics, resolution=Resolution.HOUR, since=now - dt.timedelta(days=7), until=now
    )
    daily = selectors.metric_series(
        metrics, resolution=Resolution.DAY, since=now - dt.timedelta(days=UPTIME_DAYS), until=now
    )
    name = presentation.shown(found.name, found, language=language)
    charts = [
        presentation.metric_charts(
            m, language=language, hourly=hourly.get(m.pk, []), daily=daily.get(m.pk, [])
        )
        for m in metrics
    ]
    late = presentation.ComponentRow(
        component=found, name=name, status=ComponentStatus(found.status), metrics=[c.row for c in charts]
    ).late
    bars, uptime = presentation.uptime_bars(name.text, selectors.uptime(found, days=UPTIME_DAYS), language)
    return render(
        request,
        "public/component.html",
        {
            "component": found,
            "name": name,
            "description": presentation.shown(found.description, found, language=language),
            "metrics": charts,
            "late": late,
            "late_html": presentation.late_note_html(late),
            "bars": bars,
            "uptime": uptime,
            "uptime_days": UPTIME_DAYS,
            "incidents": selectors.component_incidents(found),
        },
    )


@public_page
def history(request):
    language = _language()
    components = selectors.component_choices()
    wanted = request.GET.get("component", "")
    chosen = next((c for c in components if c.slug == wanted), None)
    page = selectors.history(
        component=chosen.pk if chosen else None,
        page=request.GET.get("page", 1),
        page_size=settings.PUBLIC_HISTORY_PAGE_SIZE,
    )
    return render(
        request,
        "public/history.html",
        {
            "page": page,
            "sections": _history_sections(page.object_list, language),
            "options": presentation.component_options(components, chosen, language),
            "chosen": chosen,
            "unknown_component": bool(wanted) and chosen is None,
        },
    )


@public_page
def uptime(request):
    language = _language()
    components = selectors.component_choices()
    months, by_component = selectors.uptime_by_month(components)
    return render(
        request,
        "public/uptime.html",
        {
            "months": [formatting.format_month(m.date(), language) for m in months],
            "rows": presentation.uptime_table_rows(components, by_component, language),
        },
    )


@public_page
def maintenance(request):
    language = _language()
    coming, past = selectors.maintenance_windows()
    affected = selectors.affected_components(event["pk"] for event in [*coming, *past])
    return render(
        request,
        "public/maintenance.html",
        {
            "coming": event_lists.maintenance_articles(coming, affected, language),
            "past": event_lists.maintenance_articles(past, affected, language),
        },
    )


def _history_sections(events: list[dict], language: str) -> SafeString:
    affected = selectors.affected_components(event["pk"] for event in events)
    return event_lists.history_sections(events, affected, language)


def choose_language(request, code: str):
    """Remembers the reader's language in a cookie (a plain link, so it works without JavaScript)."""
    if code not in language_codes():
        raise Http404
    target = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = reverse("public:overview")
    response = HttpResponseRedirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite="Lax",
        secure=not settings.DEBUG,
    )
    return response
