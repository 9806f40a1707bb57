"""The public status pages, cached per language, answering conditional GETs, without JavaScript."""

import datetime as dt

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import conditional_page, require_safe

from incidents import selectors
from incidents.models import ComponentStatus, Resolution
from incidents.public import presentation
from incidents.public.history_filters import normalised_query, parse_month
from incidents.public.history_page import RenderedPage, history_page
from incidents.public.incident_charts import incident_charts
from incidents.public.page_cache import cached_page, no_query
from incidents.public.page_numbers import page_number
from incidents.public.region_figures import region_lines
from incidents.public.uptime_bars import uptime_bars
from incidents.public.uptime_page import uptime_page
from incidents.selectors.regions import metric_regions
from incidents.translation import current_language, language_codes

UPTIME_DAYS = presentation.UPTIME_DAYS


def public_page(view=None, *, query=no_query, live=False):
    """GET and HEAD only, cached per language (see cached_page), with ETag and 304."""
    if view is None:
        return lambda view: public_page(view, query=query, live=live)
    return require_safe(conditional_page(cached_page(view, query=query, live=live)))


def history_query(request) -> str | None:
    """The key of a kept history page: its filters in one order and a page number past the first."""
    filters = normalised_query(request.GET)
    if filters is None:
        return None
    number = page_number(request.GET.get("page", ""))
    return "&".join(part for part in (filters, f"page={number}" if number > 1 else "") if part)


@public_page(live=True)
def overview(request):
    return render(request, "public/overview.html", presentation.overview_context(current_language()))


@public_page
def incident(request, slug: str):
    language = current_language()
    found = selectors.public_incident(slug)
    components = list(found.components.all())
    return render(
        request,
        "public/incident.html",
        {
            "incident": found,
            "updates": list(found.updates.all()),
            "postmortem": selectors.postmortem_for(found, language),
            "components": components,
            "related": selectors.related_incidents(found),
            "metric_charts": incident_charts(found, components, language),
        },
    )


@public_page(live=True)
def component(request, slug: str):
    language = current_language()
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
    by_region = metric_regions(metrics, now=now)
    for chart in charts:
        metric = chart.row.metric
        chart.regions = region_lines(metric, by_region.get(metric.pk, []), language=language)
    late = presentation.ComponentRow(
        component=found, name=name, status=ComponentStatus(found.status), metrics=[c.row for c in charts]
    ).late
    bars, uptime = uptime_bars(
        name.text, selectors.uptime(found, days=UPTIME_DAYS), language, slug=found.slug
    )
    return render(
        request,
        "public/component.html",
        {
            "component": found,
            "name": name,
            "description": presentation.shown(found.description, found, language=language),
            "metrics": charts,
            "late": late,
            "bars": bars,
            "uptime": uptime,
            "uptime_days": UPTIME_DAYS,
            "incidents": selectors.component_incidents(found),
        },
    )


def _rendered(request, template: str, found: RenderedPage) -> HttpResponse:
    response = render(request, template, found.context)
    if not found.keep:
        add_never_cache_headers(response)
    return response


@public_page(query=history_query)
def history(request):
    found = history_page(
        request.GET,
        page_number=page_number(request.GET.get("page", "")),
        page_size=settings.PUBLIC_HISTORY_PAGE_SIZE,
        language=current_language(),
    )
    return _rendered(request, "public/history.html", found)


def uptime_query(request) -> str | None:
    """The key of a kept uptime page: the last month it shows; None for one of the wrong shape."""
    month = request.GET.get("month", "")
    if not month:
        return ""
    return f"month={month}" if parse_month(month) else None


@public_page(query=uptime_query)
def uptime(request):
    return _rendered(
        request, "public/uptime.html", uptime_page(request.GET.get("month", ""), language=current_language())
    )


@public_page
def maintenance(request):
    coming, past = selectors.maintenance_windows()
    return render(request, "public/maintenance.html", {"coming": coming, "past": past})


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
        secure=not settings.LOCAL_RUN,
    )
    return response
