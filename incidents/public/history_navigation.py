"""Month navigation: the history page's month index and links, and the uptime page's month steps."""

import datetime as dt
from functools import lru_cache
from urllib.parse import urlencode

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from incidents import formatting


def month_value(month: dt.date) -> str:
    return f"{month:%Y-%m}"


def months_between(first: dt.date, last: dt.date) -> list[dt.date]:
    """First days of the months from `last` back to `first`, newest first."""
    earliest, latest = first.year * 12 + first.month - 1, last.year * 12 + last.month - 1
    return [dt.date(index // 12, index % 12 + 1, 1) for index in range(latest, earliest - 1, -1)]


def history_href(query: dict[str, str], **changes: str) -> str:
    """`?…` for the history page with some filters changed (an empty value removes one), no page."""
    merged = {**query, **changes}
    if "month" in changes and changes["month"]:
        merged.pop("from", None)
        merged.pop("to", None)
    text = urlencode({name: value for name, value in merged.items() if value})
    return f"?{text}" if text else "?"


@lru_cache(maxsize=4096)
def _labels(month: dt.date, language: str) -> tuple[str, str]:
    # Ten years of history is 240 Babel calls a render otherwise.
    return formatting.format_month_short(month, language), formatting.format_month(month, language)


def month_label(month: dt.date, language: str) -> str:
    """ "March 2026" in `language`, worked out once per month and language."""
    return _labels(month, language)[1]


def month_index(
    first: dt.date, last: dt.date, *, query: dict[str, str], chosen: dt.date | None, language: str
) -> SafeString:
    """Every month from `last` back to `first` as links by year, newest first (not counted: that
    costs too much), as the history page lists them."""
    return _month_index(first, last, tuple(sorted(query.items())), chosen, language)


# Drawn once per months, filters and language: a history of ten years is 120 links, and drawing
# them in the template grew a render with the length of the history (docs/public-site.md).
@lru_cache(maxsize=256)
def _month_index(
    first: dt.date, last: dt.date, query: tuple[tuple[str, str], ...], chosen: dt.date | None, language: str
) -> SafeString:
    years: dict[int, list[str]] = {}
    for month in months_between(first, last):
        short, _label = _labels(month, language)
        current = mark_safe(' aria-current="page"') if month == chosen else ""
        years.setdefault(month.year, []).append(
            format_html(
                '<li><a href="{}"{}>{}<span class="visually-hidden"> {}</span></a></li>',
                history_href(dict(query), month=month_value(month)),
                current,
                short,
                month.year,
            )
        )
    items = (
        format_html(
            '<li><span class="year">{}</span>\n      <ul class="months">{}</ul>\n    </li>',
            year,
            mark_safe("".join(links)),
        )
        for year, links in years.items()
    )
    return format_html('<ul class="years">\n    {}\n  </ul>', mark_safe("".join(items)))
