"""The public status pages: thin views over incidents.selectors and incidents.public.presentation.

Every page is cached per language (incidents.public.page_cache) and answers conditional GETs
with 304 (ETag from the content), and none needs JavaScript.
"""

import datetime as dt
import re

from django.conf import settings
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.views.decorators.http import conditional_page, require_safe

from incidents import formatting, selectors
from incidents.models import ComponentStatus, Resolution
from incidents.public import presentation
from incidents.public.incident_charts import incident_charts
from incidents.public.page_cache import cached_page, no_query
from incidents.public.uptime_bars import uptime_bars
from incidents.translation import language_codes

UPTIME_DAYS = presentation.UPTIME_DAYS


def _language() -> str:
    return (get_language() or settings.LANGUAGE_CODE).split("-")[0]


def public_page(view=None, *, query=no_query, live=False):
    """GET and HEAD only, cached per language (kept under `query`, see cached_page), with ETag
    and 304. `live`: the page shows live figures (cached under the live version too)."""
    if view is None:
        return lambda view: public_page(view, query=query, live=live)
    return require_safe(conditional_page(cached_page(view, query=query, live=live)))


PAGE_NUMBER = re.compile(r"[0-9]{1,6}")
SLUG = re.compile(r"[-a-zA-Z0-9_]{1,100}")


def _page_number(request) -> int:
    """The history page asked for; anything that is not a page number asks for the first."""
    raw = request.GET.get("page", "")
    return max(int(raw), 1) if PAGE_NUMBER.fullmatch(raw) else 1


def history_query(request) -> str | None:
    """The key of a kept history page: a component slug and a page number past the first.

    None for a component that is not a slug: such requests are answered but never kept.
    """
    component = request.GET.get("component", "")
    if component and not SLUG.fullmatch(component):
        return None
    number = _page_number(request)
    parts = [f"component={component}"] if component else []
    if number > 1:
        parts.append(f"page={number}")
    return "&".join(parts)


@public_page(live=True)
def overview(request):
    return render(request, "public/overview.html", presentation.overview_context(_language()))


@public_page
def incident(request, slug: str):
    language = _language()
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
    bars, uptime = uptime_bars(name.text, selectors.uptime(found, days=UPTIME_DAYS), language)
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


@public_page(query=history_query)
def history(request):
    language = _language()
    components = selectors.component_choices()
    wanted = request.GET.get("component", "")
    chosen = next((c for c in components if c.slug == wanted), None)
    number = _page_number(request)
    page = selectors.history(
        component=chosen.pk if chosen else None, page=number, page_size=settings.PUBLIC_HISTORY_PAGE_SIZE
    )
    past_the_end = page.number != number
    response = render(
        request,
        "public/history.html",
        {
            "page": page,
            "months": presentation.history_months(page.object_list, language),
            "components": components,
            "chosen": chosen,
            "unknown_component": bool(wanted) and chosen is None,
        },
    )
    if past_the_end or (wanted and chosen is None):
        # Made-up numbers and names all show the same first or unfiltered page: keep none.
        add_never_cache_headers(response)
    return response


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
            "rows": presentation.uptime_rows(components, by_component, language),
        },
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
        secure=not settings.DEBUG,
    )
    return response
