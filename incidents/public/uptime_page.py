"""The uptime page: three months at a time, back to the first status period, and links between them."""

import datetime as dt

from dateutil.relativedelta import relativedelta
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents import formatting, selectors
from incidents.public import history_navigation as navigation
from incidents.public import uptime_table
from incidents.public.history_filters import parse_month
from incidents.public.history_page import RenderedPage

UPTIME_MONTHS = 3


def uptime_page(wanted: str, *, language: str) -> RenderedPage:
    """The uptime page's context; `wanted` is the `month` parameter (the last month shown)."""
    zone = formatting.status_zone()
    components = selectors.component_choices()
    this_month = timezone.now().astimezone(zone).date().replace(day=1)
    first_status = selectors.first_status_times()
    first = selectors.first_status_month(zone, times=first_status) or this_month
    last = parse_month(wanted) if wanted else this_month
    month_error = ""
    if last is None or not first <= last <= this_month:
        month_error = _("There is no uptime for that month; showing the latest months.")
        last = this_month
    # To the minute, as uptime_by_month counts: renders within one minute show the same figures.
    counted_until = timezone.now().replace(second=0, microsecond=0)
    months, by_component = selectors.uptime_by_month(components, months=UPTIME_MONTHS, last=last)
    shown_first = months[0].date()
    # Older windows end no earlier than the first data's window, so none is all "no data".
    older = max(last - relativedelta(months=UPTIME_MONTHS), first + relativedelta(months=UPTIME_MONTHS - 1))
    newer = min(last + relativedelta(months=UPTIME_MONTHS), this_month)
    context = {
        "months": [formatting.format_month(m.date(), language) for m in months],
        "rows": uptime_table.uptime_rows(
            components, by_component, months, language, now=counted_until, first_status=first_status
        ),
        "month_error": month_error,
        "older": _link(older, language) if shown_first > first else None,
        "newer": _link(newer, language, latest=newer == this_month) if last < this_month else None,
        "month_choices": [
            (navigation.month_value(m), navigation.month_label(m, language), m == last)
            for m in navigation.months_between(first, this_month)
        ],
        "has_targets": any(c.uptime_target is not None for c in components),
    }
    return RenderedPage(context, keep=not month_error)


def _link(last: dt.date, language: str, *, latest: bool = False) -> dict:
    return {
        "label": navigation.month_label(last, language),
        "href": "?" if latest else f"?month={navigation.month_value(last)}",
    }
