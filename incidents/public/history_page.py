"""The history page: the events its filters select, one page of them, and its month navigation."""

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta
from django.utils import timezone

from incidents import formatting, selectors
from incidents.metrics.uptime import midnight
from incidents.public import history_navigation as navigation
from incidents.public import presentation
from incidents.public.history_filters import HistoryFilterForm, HistoryFilters, impact_choices


@dataclass
class RenderedPage:
    context: dict
    keep: bool  # False: a refused or made-up value; answered, never cached


def history_window(filters: HistoryFilters, zone: ZoneInfo) -> tuple[dt.datetime | None, dt.datetime | None]:
    """The filters' days as local midnights: [first day, the day after the last)."""
    if filters.month:
        return midnight(filters.month, zone), midnight(filters.month + relativedelta(months=1), zone)
    since = midnight(filters.since, zone) if filters.since else None
    until = midnight(filters.until + dt.timedelta(days=1), zone) if filters.until else None
    return since, until


def history_page(params, *, page_number: int, page_size: int, language: str) -> RenderedPage:
    """The history page's context for the query parameters `params` (request.GET)."""
    zone = formatting.status_zone()
    components = selectors.component_choices()
    first = selectors.first_history_month(zone)
    this_month = timezone.now().astimezone(zone).date().replace(day=1)
    form = HistoryFilterForm(params, components=components, months=(first, this_month) if first else None)
    filters = form.filters()
    since, until = history_window(filters, zone)
    page = selectors.history(
        component=filters.component,
        impact=filters.impact,
        since=since,
        until=until,
        page=page_number,
        page_size=page_size,
    )
    query = filters.query
    context = {
        "form": form,
        "filters": filters,
        "impacts": impact_choices(),
        "page": page,
        "months": presentation.history_months(page.object_list, language),
        "components": components,
        "month_index": navigation.month_index(
            first, this_month, query=query, chosen=filters.month, language=language
        )
        if first
        else "",
        "chosen_month": filters.month and formatting.format_month(filters.month, language),
        "newer_month": _month_link(filters.month, +1, first, this_month, query, language),
        "older_month": _month_link(filters.month, -1, first, this_month, query, language),
        "page_query": navigation.history_href(query)[1:],
        "feed_component": filters.component,
    }
    days = [day for day in (filters.since, filters.until) if day]
    outside = bool(days) and (
        first is None or not all(first <= day < this_month + relativedelta(months=1) for day in days)
    )
    # Made-up page numbers, names and dates all show a page that is kept already: keep none.
    return RenderedPage(context, keep=page.number == page_number and not form.errors and not outside)


def _month_link(month, step: int, first, last, query, language) -> dict | None:
    """The month before or after the one shown, while there is history there."""
    if month is None:
        return None
    other = month + relativedelta(months=step)
    if not first <= other <= last:
        return None
    return {
        "label": formatting.format_month(other, language),
        "href": navigation.history_href(query, month=navigation.month_value(other)),
    }
