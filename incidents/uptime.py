"""Time spent in each status, per day or per month, computed from status periods.

The formula shown on the uptime page: uptime = (observed time − time in partial or major
outage) / observed time. Degraded performance counts as up and is reported on its own as
time outside the latency target; maintenance counts as up. Time before a component was
first observed (or before its start date) is not observed and counts for nothing.
"""

import datetime as dt
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from zoneinfo import ZoneInfo

from incidents.models import ComponentStatus
from incidents.models.components import SEVERITY

DOWN = {ComponentStatus.PARTIAL_OUTAGE.value, ComponentStatus.MAJOR_OUTAGE.value}


@dataclass(frozen=True)
class Period:
    status: str
    started_at: dt.datetime
    ended_at: dt.datetime | None


@dataclass
class Span:
    """One day or month of one component: seconds per status and the incidents in it."""

    start: dt.datetime
    end: dt.datetime
    seconds: dict[str, float] = field(default_factory=dict)
    incidents: list = field(default_factory=list)

    @property
    def date(self) -> dt.date:
        return self.start.date()

    # Cached: the overview asks each of thousands of spans these questions more than once.
    @cached_property
    def observed(self) -> float:
        return sum(self.seconds.values())

    @cached_property
    def down_seconds(self) -> float:
        return sum(s for status, s in self.seconds.items() if status in DOWN)

    @cached_property
    def degraded_seconds(self) -> float:
        return self.seconds.get(ComponentStatus.DEGRADED_PERFORMANCE.value, 0.0)

    @cached_property
    def worst(self) -> ComponentStatus | None:
        present = [ComponentStatus(status) for status, s in self.seconds.items() if s > 0]
        return max(present, key=SEVERITY.__getitem__) if present else None

    @cached_property
    def uptime(self) -> float | None:
        """Percent of the observed time not spent in an outage, or None when nothing was observed."""
        observed = self.observed
        return 100.0 * (observed - self.down_seconds) / observed if observed else None


def day_starts(*, days: int, now: dt.datetime, zone: ZoneInfo) -> list[dt.datetime]:
    """The local midnights that open each of the last `days` days, and the one closing today."""
    today = now.astimezone(zone).date()
    first = today - dt.timedelta(days=days - 1)
    return [_midnight(first + dt.timedelta(days=n), zone) for n in range(days + 1)]


def month_starts(*, months: int, now: dt.datetime, zone: ZoneInfo) -> list[dt.datetime]:
    """The local first-of-month midnights opening each of the last `months` months, and the next."""
    local = now.astimezone(zone).date().replace(day=1)
    firsts = []
    year, month = local.year, local.month
    for _ in range(months):
        firsts.append(dt.date(year, month, 1))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    firsts.reverse()
    last = firsts[-1]
    following = dt.date(last.year + last.month // 12, last.month % 12 + 1, 1)
    return [_midnight(day, zone) for day in [*firsts, following]]


def _midnight(day: dt.date, zone: ZoneInfo) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(), tzinfo=zone)


def spans(
    periods: Iterable[Period],
    boundaries: Sequence[dt.datetime],
    *,
    now: dt.datetime,
    observed_from: dt.datetime | None = None,
) -> list[Span]:
    """Seconds in each status within each interval [boundaries[i], boundaries[i+1]).

    Open periods end now; nothing before `observed_from` counts.
    """
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
        span.seconds = dict(seconds)
    return result


def overall(all_spans: Sequence[Span]) -> Span | None:
    """The spans added together (for "99.98 % over 90 days")."""
    if not all_spans:
        return None
    total = Span(all_spans[0].start, all_spans[-1].end)
    sums: dict[str, float] = defaultdict(float)
    for span in all_spans:
        for status, seconds in span.seconds.items():
            sums[status] += seconds
    total.seconds = dict(sums)
    return total
