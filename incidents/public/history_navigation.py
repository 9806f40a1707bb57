"""Month navigation: the history page's month index and links, and the uptime page's month steps."""

import datetime as dt
from dataclasses import dataclass, field
from functools import lru_cache
from urllib.parse import urlencode

from incidents import formatting


@dataclass
class MonthLink:
    first_day: dt.date
    short: str  # "Mar"
    label: str  # "March 2026"
    href: str
    current: bool


@dataclass
class YearOfMonths:
    year: int
    months: list[MonthLink] = field(default_factory=list)


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
) -> list[YearOfMonths]:
    """Every month from `last` back to `first` by year, newest first (not counted: that costs too much)."""
    years: list[YearOfMonths] = []
    for month in months_between(first, last):
        if not years or years[-1].year != month.year:
            years.append(YearOfMonths(month.year))
        short, label = _labels(month, language)
        years[-1].months.append(
            MonthLink(
                first_day=month,
                short=short,
                label=label,
                href=history_href(query, month=month_value(month)),
                current=month == chosen,
            )
        )
    return years
