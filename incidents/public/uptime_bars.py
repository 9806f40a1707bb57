"""The day bars of the overview and component pages: what each bar says, in the page's
language, with quiet days gathered in runs; drawn by incidents.public.charts."""

import datetime as dt
import hashlib
import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from incidents import formatting, selectors
from incidents.metrics.uptime import Span, overall
from incidents.models import Component, ComponentStatus
from incidents.public import charts, versions
from incidents.translation import pick

logger = logging.getLogger(__name__)

NO_DATA = "none"
# A fragment cache; why it is kept, with its measurement, is in docs/public-site.md.
# The days before today change only with content; the bound covers status periods edited by hand.
PAST_DAYS_SECONDS = 600


class BarTexts:
    """The texts of day bars in one language, formatting each date and label once per page.

    The overview draws 90 bars for each of dozens of components: formatting a date with
    Babel for every bar would cost more than everything else on the page.
    """

    def __init__(self, language: str):
        self.language = language
        self._days: dict[dt.date, str] = {}
        self._durations: dict[int, str] = {}
        self._labels = {status: str(status.label) for status in ComponentStatus}
        self._no_data = _("%(day)s: no data")
        self._links: dict[str, str] = {}
        self._degraded = _("degraded for %(duration)s")
        self._down = _("down for %(duration)s")

    def day(self, date: dt.date) -> str:
        if date not in self._days:
            self._days[date] = formatting.format_day(date, self.language)
        return self._days[date]

    def duration(self, seconds: float) -> str:
        minutes = round(seconds / 60)
        if minutes not in self._durations:
            self._durations[minutes] = formatting.format_duration(
                dt.timedelta(minutes=minutes), self.language
            )
        return self._durations[minutes]

    def link(self, slug: str) -> str:
        if slug not in self._links:
            self._links[slug] = reverse("public:incident", args=[slug])
        return self._links[slug]

    def run_text(self, run: list[Span]) -> str:
        """What a run of quiet days says: "Dec 1, 2025 – Dec 20, 2025: Operational"."""
        return self.dates_text(run[0].date, run[-1].date, run[0].worst)

    def dates_text(self, first: dt.date, last: dt.date, worst: ComponentStatus | None) -> str:
        days = f"{self.day(first)} – {self.day(last)}"
        if worst is None:
            return self._no_data % {"day": days}
        return f"{days}: {self._labels[worst]}"

    def text(self, span: Span) -> str:
        """What one day's bar says: its date, worst status, time degraded and down, incidents."""
        day = self.day(span.date)
        worst = span.worst
        if worst is None:
            return self._no_data % {"day": day}
        parts = [f"{day}: {self._labels[worst]}"]
        if span.degraded_seconds >= 60:
            parts.append(self._degraded % {"duration": self.duration(span.degraded_seconds)})
        if span.down_seconds >= 60:
            parts.append(self._down % {"duration": self.duration(span.down_seconds)})
        if span.incidents:
            titles = [
                pick(
                    row["incident__title"],
                    language=self.language,
                    original=row["incident__original_language"],
                ).text
                for row in span.incidents
            ]
            parts.append(
                ngettext("%(count)d incident: %(titles)s", "%(count)d incidents: %(titles)s", len(titles))
                % {"count": len(titles), "titles": "; ".join(titles)}
            )
        return "; ".join(parts)


def _is_quiet(span: Span) -> bool:
    return (
        not span.incidents
        and span.down_seconds < 60
        and span.degraded_seconds < 60
        and span.worst in (None, ComponentStatus.OPERATIONAL)
    )


def _runs(days: list[Span]) -> list[list[Span]]:
    """Days in order, quiet days with the same status gathered in runs (each other day alone)."""
    runs: list[list[Span]] = []
    last_quiet = False
    for span in days:
        quiet = _is_quiet(span)
        if runs and quiet and last_quiet and runs[-1][-1].worst == span.worst:
            runs[-1].append(span)
        else:
            runs.append([span])
        last_quiet = quiet
    return runs


def _bar(run: list[Span], texts: BarTexts) -> charts.Bar:
    first = run[0]
    worst = first.worst
    css_class = f"status-{worst.value if worst else NO_DATA}"
    if len(run) > 1:
        return charts.Bar(css_class=css_class, text=texts.run_text(run), days=len(run))
    href = texts.link(first.incidents[0]["incident__slug"]) if first.incidents else None
    return charts.Bar(css_class=css_class, text=texts.text(first), href=href)


def _drawn(component_name: str, bars: list[charts.Bar], total: Span | None, days: int, language: str):
    percent = formatting.format_percent(total.uptime, language) if total and total.uptime is not None else ""
    if percent:
        label = _("%(component)s, last %(days)d days: %(uptime)s uptime, one bar per day") % {
            "component": component_name,
            "days": days,
            "uptime": percent,
        }
    else:
        label = _("%(component)s, last %(days)d days: no data yet") % {
            "component": component_name,
            "days": days,
        }
    return charts.uptime_bars(bars, label=label), percent


def uptime_bars(
    component_name: str, days: list[Span], language: str, texts: BarTexts | None = None
) -> tuple[str, str]:
    """The bars of one component and its uptime over those days as text."""
    texts = texts or BarTexts(language)
    bars = [_bar(run, texts) for run in _runs(days)]
    return _drawn(component_name, bars, overall(days), len(days), language)


@dataclass(frozen=True)
class PastDays:
    """One component's bars of the days before today in one language, with what today's bar
    needs to join them: the last run (today may extend it) and the seconds per status."""

    bars: list[charts.Bar]  # every run but the last
    last: list[charts.Bar]  # the last run's bar, or nothing
    last_start: dt.date | None
    last_days: int
    last_status: ComponentStatus | None
    last_quiet: bool
    seconds: dict[str, float]
    start: dt.datetime


def past_days(days: list[Span], texts: BarTexts) -> PastDays:
    runs = _runs(days)
    seconds: dict[str, float] = defaultdict(float)
    for span in days:
        for status, value in span.seconds.items():
            seconds[status] += value
    last = runs[-1] if runs else []
    return PastDays(
        bars=[_bar(run, texts) for run in runs[:-1]],
        last=[_bar(last, texts)] if last else [],
        last_start=last[0].date if last else None,
        last_days=len(last),
        last_status=last[0].worst if last else None,
        last_quiet=bool(last) and _is_quiet(last[-1]),
        seconds=dict(seconds),
        start=days[0].start,
    )


def bars_with_today(component_name: str, past: PastDays, today: Span, texts: BarTexts) -> tuple[str, str]:
    """The bars and uptime of `past_days` followed by today's bar, as uptime_bars draws them."""
    if past.last_quiet and _is_quiet(today) and past.last_status == today.worst:
        worst = today.worst
        bars = [
            *past.bars,
            charts.Bar(
                css_class=f"status-{worst.value if worst else NO_DATA}",
                text=texts.dates_text(past.last_start, today.date, worst),
                days=past.last_days + 1,
            ),
        ]
    else:
        bars = [*past.bars, *past.last, _bar([today], texts)]
    seconds = dict(past.seconds)
    for status, value in today.seconds.items():
        seconds[status] = seconds.get(status, 0.0) + value
    total = Span(past.start, today.end, seconds)
    return _drawn(component_name, bars, total, sum(bar.days for bar in bars), texts.language)


def overview_bars(
    components: Sequence[Component], names: dict[int, str], *, language: str, days: int
) -> dict[int, tuple[str, str]]:
    """The bars and uptime of each component over the last `days` days, today included.

    The bars of the days before today depend on content only: they are kept in the page cache
    store under the content version, the language and the date; today's bar is read per request.
    """
    now = timezone.now()
    texts = BarTexts(language)
    key = _past_days_key(components, language=language, days=days, now=now)
    past = _kept(key)
    if past is None:
        spans = selectors.uptime_days(components, days=days, now=now)
        past = {pk: past_days(component_spans[:-1], texts) for pk, component_spans in spans.items()}
        today = {pk: component_spans[-1] for pk, component_spans in spans.items()}
        _keep(key, past)
    else:
        today = {pk: spans[0] for pk, spans in selectors.uptime_days(components, days=1, now=now).items()}
    return {c.pk: bars_with_today(names[c.pk], past[c.pk], today[c.pk], texts) for c in components}


def _past_days_key(
    components: Sequence[Component], *, language: str, days: int, now: dt.datetime
) -> str | None:
    """None while the cache server is unreachable."""
    try:
        version = versions.content_version()
    except Exception:  # any cache failure: the bars are computed afresh
        logger.warning("Cache unreachable: overview bars computed afresh", exc_info=True)
        return None
    today = now.astimezone(formatting.status_zone()).date()
    ids = hashlib.sha256(",".join(str(c.pk) for c in components).encode()).hexdigest()[:16]
    return f"public:past-days:{version}:{language}:{today.isoformat()}:{days}:{ids}"


def _kept(key: str | None) -> dict[int, PastDays] | None:
    if key is None:
        return None
    try:
        return cache.get(key)
    except Exception:  # any cache failure: the bars are computed afresh
        return None


def _keep(key: str | None, past: dict[int, PastDays]) -> None:
    if key is None:
        return
    try:
        cache.set(key, past, timeout=PAST_DAYS_SECONDS)
    except Exception:  # a cache failure must never fail the page
        logger.warning("Cache unreachable: overview bars not kept", exc_info=True)
