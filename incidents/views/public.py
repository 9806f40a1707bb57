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
from django.utils.translation import gettext as _
from django.views.decorators.http import conditional_page, require_safe

from incidents import formatting, selectors
from incidents.forms.history import HistoryFilterForm, impact_choices, normalised_query, parse_month
from incidents.models import ComponentStatus, Resolution
from incidents.public import history_navigation as navigation
from incidents.public import presentation, uptime_table
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


def _page_number(request) -> int:
    """The history page asked for; anything that is not a page number asks for the first."""
    raw = request.GET.get("page", "")
    return max(int(raw), 1) if PAGE_NUMBER.fullmatch(raw) else 1


def history_query(request) -> str | None:
    """The key of a kept history page: its filters in one order and a page number past the first.

    None for a value of the wrong shape: such requests are answered but never kept.
    """
    filters = normalised_query(request.GET)
    if filters is None:
        return None
    number = _page_number(request)
    return "&".join(part for part in (filters, f"page={number}" if number > 1 else "") if part)


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


@public_page(query=history_query)
def history(request):
    language, zone = _language(), formatting.status_zone()
    components = selectors.component_choices()
    first = selectors.first_history_month(zone)
    this_month = timezone.now().astimezone(zone).date().replace(day=1)
    form = HistoryFilterForm(
        request.GET, components=components, months=(first, this_month) if first else None
    )
    filters = form.filters()
    since, until = history_window(filters, zone)
    number = _page_number(request)
    page = selectors.history(
        component=filters.component,
        impact=filters.impact,
        since=since,
        until=until,
        page=number,
        page_size=settings.PUBLIC_HISTORY_PAGE_SIZE,
    )
    counts = selectors.history_months(zone, component=filters.component, impact=filters.impact)
    query = filters.query
    response = render(
        request,
        "public/history.html",
        {
            "form": form,
            "filters": filters,
            "impacts": impact_choices(),
            "page": page,
            "months": presentation.history_months(page.object_list, language),
            "components": components,
            "month_index": navigation.month_index(
                first, this_month, counts, query=query, chosen=filters.month, language=language
            )
            if first
            else [],
            "chosen_month": filters.month and formatting.format_month(filters.month, language),
            "newer_month": _month_link(filters.month, +1, first, this_month, query, language),
            "older_month": _month_link(filters.month, -1, first, this_month, query, language),
            "page_query": navigation.history_href(query)[1:],
            "feed_component": filters.component,
        },
    )
    days = [day for day in (filters.since, filters.until) if day]
    outside = bool(days) and (
        first is None or not all(first <= day < navigation.next_month(this_month) for day in days)
    )
    if page.number != number or form.errors or outside:
        # Made-up numbers, names and dates all show a page that is kept already: keep none.
        add_never_cache_headers(response)
    return response


def history_window(filters, zone) -> tuple[dt.datetime | None, dt.datetime | None]:
    """The filters' days as local midnights: [first day, the day after the last)."""

    def midnight(day: dt.date) -> dt.datetime:
        return dt.datetime.combine(day, dt.time(), tzinfo=zone)

    if filters.month:
        return midnight(filters.month), midnight(navigation.next_month(filters.month))
    since = midnight(filters.since) if filters.since else None
    until = midnight(filters.until + dt.timedelta(days=1)) if filters.until else None
    return since, until


def _month_link(month, step: int, first, last, query, language) -> dict | None:
    """The month before or after the one shown, while there is history there."""
    if month is None:
        return None
    other = navigation.next_month(month) if step > 0 else (month - dt.timedelta(days=1)).replace(day=1)
    if not first <= other <= last:
        return None
    return {
        "label": formatting.format_month(other, language),
        "href": navigation.history_href(query, month=navigation.month_value(other)),
    }


UPTIME_MONTHS = 3


def uptime_query(request) -> str | None:
    """The key of a kept uptime page: the last month it shows; None for one of the wrong shape."""
    month = request.GET.get("month", "")
    if not month:
        return ""
    return f"month={month}" if parse_month(month) else None


@public_page(query=uptime_query)
def uptime(request):
    language, zone = _language(), formatting.status_zone()
    components = selectors.component_choices()
    this_month = timezone.now().astimezone(zone).date().replace(day=1)
    first = selectors.first_status_month(zone) or this_month
    wanted = request.GET.get("month", "")
    last = parse_month(wanted) if wanted else this_month
    month_error = ""
    if last is None or not first <= last <= this_month:
        month_error = _("There is no uptime for that month; showing the latest months.")
        last = this_month
    months, by_component = selectors.uptime_by_month(components, months=UPTIME_MONTHS, last=last)
    shown_first = months[0].date()
    # Older windows end no earlier than the first data's window, so none is all "no data".
    older = max(
        navigation.months_back(last, UPTIME_MONTHS), navigation.months_forward(first, UPTIME_MONTHS - 1)
    )
    newer = min(navigation.months_forward(last, UPTIME_MONTHS), this_month)
    response = render(
        request,
        "public/uptime.html",
        {
            "months": [formatting.format_month(m.date(), language) for m in months],
            "rows": uptime_table.uptime_rows(components, by_component, months, language, now=timezone.now()),
            "month_error": month_error,
            "older": _uptime_link(older, language) if shown_first > first else None,
            "newer": _uptime_link(newer, language, latest=newer == this_month) if last < this_month else None,
            "month_choices": [
                (navigation.month_value(m), formatting.format_month(m, language), m == last)
                for m in navigation.months_between(first, this_month)
            ],
            "has_targets": any(c.uptime_target is not None for c in components),
        },
    )
    if month_error:
        add_never_cache_headers(response)
    return response


def _uptime_link(last: dt.date, language: str, *, latest: bool = False) -> dict:
    return {
        "label": formatting.format_month(last, language),
        "href": "?" if latest else f"?month={navigation.month_value(last)}",
    }


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
