"""Time spent in each status, per day or per month, computed from status periods.

A day's uptime is the share of its observed time not in an outage. A month's is the share of the
whole month (from the start date, until now): unobserved time counts as operational, as
Statuspage counts it. Degraded performance and maintenance count as up.
"""

import datetime as dt
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_EVEN, Decimal
from typing import NamedTuple
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta

from incidents.models import ComponentStatus
from incidents.models.components import SEVERITY

DOWN = {ComponentStatus.PARTIAL_OUTAGE.value, ComponentStatus.MAJOR_OUTAGE.value}
DEGRADED = ComponentStatus.DEGRADED_PERFORMANCE.value
SEVERITY_BY_VALUE = {status.value: severity for status, severity in SEVERITY.items()}


class Period(NamedTuple):
    status: str
    started_at: dt.datetime
    ended_at: dt.datetime | None


_UNKNOWN = object()


class Span:
    """One day or month of one component: seconds per status, derived figures, and its incidents."""

    # Figures are derived once when the seconds are set (the overview asks thousands of spans);
    # the worst status when first asked (the uptime table never asks).
    __slots__ = (
        "start",
        "end",
        "seconds",
        "incidents",
        "observed",
        "down_seconds",
        "degraded_seconds",
        "_worst",
    )

    def __init__(self, start: dt.datetime, end: dt.datetime, seconds: dict[str, float] | None = None):
        self.start, self.end = start, end
        self.incidents: list = []
        self.set_seconds(seconds or {})

    def set_seconds(self, seconds: dict[str, float]) -> None:
        self.seconds = seconds
        self._worst = _UNKNOWN
        if len(seconds) <= 1:  # the usual day: one status all day, or nothing observed
            ((status, observed),) = seconds.items() or ((None, 0.0),)
            self.observed = observed
            self.down_seconds = observed if status in DOWN else 0.0
            self.degraded_seconds = observed if status == DEGRADED else 0.0
            return
        self.observed = sum(seconds.values())
        self.down_seconds = sum(s for status, s in seconds.items() if status in DOWN)
        self.degraded_seconds = seconds.get(DEGRADED, 0.0)

    @property
    def worst(self) -> ComponentStatus | None:
        """The most severe status the span spent time in, or None when nothing was observed."""
        if self._worst is _UNKNOWN:
            present = [status for status, s in self.seconds.items() if s > 0]
            self._worst = (
                ComponentStatus(max(present, key=SEVERITY_BY_VALUE.__getitem__)) if present else None
            )
        return self._worst

    @property
    def date(self) -> dt.date:
        return self.start.date()

    @property
    def uptime(self) -> float | None:
        """Percent of the observed time not spent in an outage, or None when nothing was observed."""
        return 100.0 * (self.observed - self.down_seconds) / self.observed if self.observed else None


# Uptime is shown with two decimals; a span with any time down shows at most 99.99 %, since
# "100.00 %" would say there was none.
SHOWN_DECIMALS = 2
_QUANTUM = Decimal(1).scaleb(-SHOWN_DECIMALS)
_BELOW_FULL = Decimal(100) - _QUANTUM


def shown_uptime(uptime: float, *, down_seconds: float) -> Decimal:
    """The uptime as shown: two decimals (half to even), never 100.00 after time down."""
    shown = Decimal(repr(uptime)).quantize(_QUANTUM, rounding=ROUND_HALF_EVEN)
    return min(shown, _BELOW_FULL) if down_seconds > 0 else shown


def month_uptime(span: Span, *, now: dt.datetime, counted_from: dt.datetime | None = None) -> float:
    """Percent of a month (from `counted_from`, until `now`) not in an outage; unobserved time is up."""
    start = max(span.start, counted_from) if counted_from else span.start
    # In UTC: subtracting two times of the same zone ignores a change of summer time between them.
    length = (min(span.end, now).astimezone(dt.UTC) - start.astimezone(dt.UTC)).total_seconds()
    if length <= 0:
        return 100.0
    return 100.0 * (length - min(span.down_seconds, length)) / length


def day_starts(*, days: int, now: dt.datetime, zone: ZoneInfo) -> list[dt.datetime]:
    """The local midnights that open each of the last `days` days, and the one closing today."""
    today = now.astimezone(zone).date()
    first = today - dt.timedelta(days=days - 1)
    return [midnight(first + dt.timedelta(days=n), zone) for n in range(days + 1)]


def month_starts(*, months: int, now: dt.datetime, zone: ZoneInfo) -> list[dt.datetime]:
    """The local first-of-month midnights opening each of the last `months` months, and the next."""
    local = now.astimezone(zone).date().replace(day=1)
    return [midnight(local + relativedelta(months=n), zone) for n in range(1 - months, 2)]


def midnight(day: dt.date, zone: ZoneInfo) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(), tzinfo=zone)


def spans(
    periods: Iterable[Period],
    boundaries: Sequence[dt.datetime],
    *,
    now: dt.datetime,
    observed_from: dt.datetime | None = None,
) -> list[Span]:
    """Seconds in each status per [boundaries[i], boundaries[i+1]), from `observed_from`, open until now."""
    result = [Span(start, end) for start, end in zip(boundaries, boundaries[1:], strict=False)]
    totals = [defaultdict(float) for _ in result]
    # Compared in UTC: comparing datetimes of different zones costs a UTC offset lookup each time.
    boundaries = [b.astimezone(dt.UTC) for b in boundaries]
    now = now.astimezone(dt.UTC)
    window_start, window_end = boundaries[0], min(boundaries[-1], now)
    if observed_from and observed_from > window_start:
        window_start = observed_from.astimezone(dt.UTC)
    for period in periods:
        start = max(period.started_at, window_start)
        end = min(period.ended_at or now, window_end)
        index = bisect_right(boundaries, start) - 1
        while start < end and index < len(result):
            chunk_end = min(end, boundaries[index + 1])
            totals[index][period.status] += (chunk_end - start).total_seconds()
            start, index = chunk_end, index + 1
    for span, seconds in zip(result, totals, strict=True):
        span.set_seconds(dict(seconds))
    return result


class MonthGrid:
    """Month boundaries with what every component's spans need of them, computed once per page."""

    def __init__(self, boundaries: Sequence[dt.datetime]):
        self.boundaries = tuple(boundaries)
        self.months = [
            (start, end, start.date()) for start, end in zip(boundaries, boundaries[1:], strict=False)
        ]
        # In UTC: subtracting two times of the same zone ignores a change of summer time between them.
        self.utc = [b.astimezone(dt.UTC) for b in boundaries]


def month_spans(
    grid: MonthGrid,
    counted: dict[dt.date, dict[str, float]],
    running: Period | None,
    *,
    now: dt.datetime,
    observed_from: dt.datetime | None = None,
) -> list[Span]:
    """Month spans from counted closed periods (seconds_by_month) and the running period until now."""
    if running is None:
        return [Span(start, end, counted.get(first, {})) for start, end, first in grid.months]
    utc = grid.utc
    start = max(running.started_at.astimezone(dt.UTC), utc[0])
    if observed_from:
        start = max(start, observed_from.astimezone(dt.UTC))
    end = min(now.astimezone(dt.UTC), utc[-1])
    result = []
    for index, (month_start, month_end, first) in enumerate(grid.months):
        seconds = counted.get(first, {})
        low, high = max(start, utc[index]), min(end, utc[index + 1])
        if low < high:
            seconds = dict(seconds)
            seconds[running.status] = seconds.get(running.status, 0.0) + (high - low).total_seconds()
        result.append(Span(month_start, month_end, seconds))
    return result


# A start date stored out of bounds counts from the nearest date any zone's midnight can hold.
EARLIEST_START, LATEST_START = dt.date(1970, 1, 1), dt.date(9999, 12, 30)


def observed_from(start_date: dt.date | None, zone: ZoneInfo) -> dt.datetime | None:
    """When a component with this start date began to count (local midnight), or None."""
    if not start_date:
        return None
    return midnight(min(max(start_date, EARLIEST_START), LATEST_START), zone)


def seconds_by_month(
    periods: Iterable[Period], *, zone: ZoneInfo, observed_from: dt.datetime | None = None
) -> dict[dt.date, dict[str, float]]:
    """Seconds in each status per local month of closed periods, split as spans() does, for UptimeMonth."""
    totals: dict[dt.date, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for period in periods:
        if period.ended_at is None:
            continue
        start, end = period.started_at.astimezone(dt.UTC), period.ended_at.astimezone(dt.UTC)
        if observed_from:
            start = max(start, observed_from.astimezone(dt.UTC))
        while start < end:
            first = start.astimezone(zone).date().replace(day=1)
            following = first + relativedelta(months=1)
            chunk_end = min(end, midnight(following, zone).astimezone(dt.UTC))
            totals[first][period.status] += (chunk_end - start).total_seconds()
            start = chunk_end
    return {month: dict(seconds) for month, seconds in totals.items()}


def overall(all_spans: Sequence[Span]) -> Span | None:
    """The spans added together (for "99.98 % over 90 days")."""
    if not all_spans:
        return None
    sums: dict[str, float] = defaultdict(float)
    for span in all_spans:
        for status, seconds in span.seconds.items():
            sums[status] += seconds
    return Span(all_spans[0].start, all_spans[-1].end, dict(sums))
