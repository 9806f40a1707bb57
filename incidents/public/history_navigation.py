"""Month navigation: the history page's month index (years, months, how many events each) and
its links, and the steps between months the uptime page takes."""

import datetime as dt
from dataclasses import dataclass, field
from urllib.parse import urlencode

from incidents import formatting


@dataclass
class MonthLink:
    first_day: dt.date
    short: str  # "Mar"
    label: str  # "March 2026"
    count: int
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
    found, year, month = [], last.year, last.month
    while (year, month) >= (first.year, first.month):
        found.append(dt.date(year, month, 1))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return found


def next_month(month: dt.date) -> dt.date:
    return dt.date(month.year + month.month // 12, month.month % 12 + 1, 1)


def months_back(month: dt.date, count: int) -> dt.date:
    index = month.year * 12 + month.month - 1 - count
    return dt.date(index // 12, index % 12 + 1, 1)


def months_forward(month: dt.date, count: int) -> dt.date:
    return months_back(month, -count)


def history_href(query: dict[str, str], **changes: str) -> str:
    """`?…` for the history page with the current filters, some of them changed or removed
    (an empty value removes one); the page number is never kept."""
    merged = {**query, **changes}
    if "month" in changes and changes["month"]:
        merged.pop("from", None)
        merged.pop("to", None)
    text = urlencode({name: value for name, value in merged.items() if value})
    return f"?{text}" if text else "?"


def month_index(
    first: dt.date,
    last: dt.date,
    counts: dict[dt.date, int],
    *,
    query: dict[str, str],
    chosen: dt.date | None,
    language: str,
) -> list[YearOfMonths]:
    """Every month from `last` back to `first` by year, newest first, with its number of events."""
    years: list[YearOfMonths] = []
    for month in months_between(first, last):
        if not years or years[-1].year != month.year:
            years.append(YearOfMonths(month.year))
        years[-1].months.append(
            MonthLink(
                first_day=month,
                short=formatting.format_month_short(month, language),
                label=formatting.format_month(month, language),
                count=counts.get(month, 0),
                href=history_href(query, month=month_value(month)),
                current=month == chosen,
            )
        )
    return years
