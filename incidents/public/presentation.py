"""What the public pages show, built from selector results in the page's language.

Views stay thin: they call a selector, hand the result to a function here, and render.
Texts are translated and values formatted here (through incidents.formatting), and charts
are drawn by incidents.charts with their text alternatives.
"""

import datetime as dt
import html
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from incidents import charts, formatting, readings
from incidents.kept import kept
from incidents.models import (
    Component,
    ComponentStatus,
    IncidentStatus,
    Metric,
    Resolution,
)
from incidents.translation import Shown, pick
from incidents.uptime import Span, overall

NO_DATA = "none"
UPTIME_DAYS = 90  # days of bars on the overview and component pages


def shown(texts: dict, obj=None, *, language: str) -> Shown:
    return pick(texts, language=language, original=getattr(obj, "original_language", None))


@dataclass
class MetricRow:
    metric: Metric
    name: Shown
    value: str  # "1.8 s", or "" when there is no current value (no data, or the last check failed)
    age: str  # "40 seconds ago": how old the newest sample is
    at: dt.datetime | None = None  # when the newest sample was taken
    sparkline: str = ""
    # From incidents.readings: no sample for 3 intervals (or never) is "no data", never the old value.
    no_data: bool = True
    failed: bool = False  # the newest sample was a failure or timeout
    status: ComponentStatus | None = None  # the metric's own status; None when there is no data
    late: str = ""  # "23 minutes": a latency metric's value when past its degraded threshold

    @property
    def shows_status(self) -> bool:
        """The metric's status is worth saying next to its value (anything worse than operational)."""
        return self.status is not None and self.status != ComponentStatus.OPERATIONAL


@dataclass
class ComponentRow:
    component: Component
    name: Shown
    status: ComponentStatus
    metrics: list[MetricRow] = field(default_factory=list)
    bars: str = ""
    uptime: str = ""  # "99.982 %" over the bars' days

    @property
    def late(self) -> MetricRow | None:
        """An operational component whose latency metric is past its degraded threshold:
        latency is a status of its own, so the page says by how much ("up, but 23 minutes late")."""
        if self.status != ComponentStatus.OPERATIONAL:
            return None
        return next((row for row in self.metrics if row.late), None)


def metric_value(metric: Metric, value: float | None, language: str) -> str:
    if value is None:
        return ""
    number = formatting.format_number(value, language, precision=metric.precision)
    return f"{number}\u00a0{metric.unit}" if metric.unit != "count" else number


def latency_text(metric: Metric, value: float, language: str) -> str:
    """A delay as people say it ("23 minutes") from a minute on, else the value with its unit."""
    seconds = {"s": value, "ms": value / 1000}.get(metric.unit)
    if seconds is not None and seconds >= 60:
        return formatting.format_duration(dt.timedelta(seconds=seconds), language)
    return metric_value(metric, value, language)


def metric_row(
    metric: Metric,
    *,
    language: str,
    hourly: list[float | None] | None = None,
    reading: readings.MetricReading | None = None,
    now: dt.datetime | None = None,
) -> MetricRow:
    """One metric as readers see it. Load metrics with select_related("probe", "health"),
    or pass the `reading` made from their live columns (and the `now` it was read at)."""
    name = shown(metric.name, metric, language=language)
    now = now or timezone.now()
    reading = reading or readings.metric_reading(metric, now=now)
    excess = readings.lateness(reading)
    row = MetricRow(
        metric=metric,
        name=name,
        value=metric_value(metric, reading.value, language),
        age=formatting.format_age(now - reading.at, language) if reading.at else "",
        at=reading.at,
        no_data=reading.no_data,
        failed=reading.failed,
        status=reading.status,
        late=latency_text(metric, reading.value, language) if excess is not None else "",
    )
    if hourly is not None:
        present = [v for v in hourly if v is not None]
        if present:
            label = _("%(metric)s over the last 24 hours: from %(low)s to %(high)s") % {
                "metric": name.text,
                "low": metric_value(metric, min(present), language),
                "high": metric_value(metric, max(present), language),
            }
        else:
            label = _("%(metric)s over the last 24 hours: no data") % {"metric": name.text}
        row.sparkline = charts.sparkline(hourly, label=label)
    return row


STATUS_ICONS = {
    ComponentStatus.OPERATIONAL: "✓",
    ComponentStatus.DEGRADED_PERFORMANCE: "▲",
    ComponentStatus.PARTIAL_OUTAGE: "◆",
    ComponentStatus.MAJOR_OUTAGE: "✕",
    ComponentStatus.UNDER_MAINTENANCE: "⚙",
}


def _esc(text) -> str:
    return html.escape(str(text), quote=True)


def _iso_utc(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def metric_now_html(row: MetricRow) -> SafeString:
    """A metric's live figure: "1.8 s, 40 seconds ago", "no data" or "last check failed",
    followed by its own status when that is worse than operational.

    Filled into the overview for every metric on every request, so it is built with the
    standard library's escape rather than format_html (the large benchmark overview's fill went
    from 1.33 to 0.90 ms)."""
    if row.no_data:
        html = f'<span class="value no-data"><span class="icon" aria-hidden="true">∅</span> {_esc(_("no data"))}</span>'
        if row.age:
            last = _("last report %(age)s") % {"age": row.age}
            html += f' <span class="last-report">({_esc(last)})</span>'
    elif row.failed:
        html = (
            '<span class="value check-failed status-major_outage"><span class="icon" aria-hidden="true">✕</span> '
            f'{_esc(_("last check failed"))}</span>, <time datetime="{_iso_utc(row.at)}">{_esc(row.age)}</time>'
        )
    else:
        html = (
            f'<strong class="value">{_esc(row.value)}</strong>, '
            f'<time datetime="{_iso_utc(row.at)}">{_esc(row.age)}</time>'
        )
    if row.shows_status:
        html += (
            f' — <span class="metric-status status-{row.status.value}"><span class="icon" aria-hidden="true">'
            f"{STATUS_ICONS[row.status]}</span> {_esc(str(row.status.label).lower())}</span>"
        )
    return SafeString(html)


NOTHING = SafeString("")


def late_note_html(late: MetricRow | None) -> SafeString:
    """ "▲ up, but 23 minutes late (webhook delivery delay)" for an operational component whose
    latency metric is past its degraded threshold; nothing otherwise."""
    if late is None:
        return NOTHING
    text = _("up, but %(late)s late (%(metric)s)") % {"late": late.late, "metric": late.name}
    return SafeString(
        '<span class="late status-degraded_performance"><span class="icon" aria-hidden="true">▲</span> '
        f"{_esc(text)}</span>"
    )


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
        days = f"{self.day(run[0].date)} – {self.day(run[-1].date)}"
        worst = run[0].worst
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
    for span in days:
        if runs and _is_quiet(span) and _is_quiet(runs[-1][-1]) and runs[-1][-1].worst == span.worst:
            runs[-1].append(span)
        else:
            runs.append([span])
    return runs


def uptime_bars(
    component_name: str, days: list[Span], language: str, texts: BarTexts | None = None
) -> tuple[str, str]:
    """The bars of one component and its uptime over those days as text."""
    texts = texts or BarTexts(language)
    bars = []
    for run in _runs(days):
        first = run[0]
        worst = first.worst
        css_class = f"status-{worst.value if worst else NO_DATA}"
        if len(run) == 1:
            href = texts.link(first.incidents[0]["incident__slug"]) if first.incidents else None
            bars.append(charts.Bar(css_class=css_class, text=texts.text(first), href=href))
        else:
            bars.append(charts.Bar(css_class=css_class, text=texts.run_text(run), days=len(run)))
    total = overall(days)
    percent = formatting.format_percent(total.uptime, language) if total and total.uptime is not None else ""
    if percent:
        label = _("%(component)s, last %(days)d days: %(uptime)s uptime, one bar per day") % {
            "component": component_name,
            "days": len(days),
            "uptime": percent,
        }
    else:
        label = _("%(component)s, last %(days)d days: no data yet") % {
            "component": component_name,
            "days": len(days),
        }
    return charts.uptime_bars(bars, label=label), percent


def component_rows(
    components: list[Component],
    *,
    language: str,
    hourly: dict[int, list[float | None]],
    days: dict[int, list[Span]],
    texts: BarTexts | None = None,
) -> list[ComponentRow]:
    rows = []
    texts = texts or BarTexts(language)
    for component in components:
        name = shown(component.name, component, language=language)
        row = ComponentRow(component=component, name=name, status=ComponentStatus(component.status))
        row.metrics = [
            metric_row(m, language=language, hourly=hourly.get(m.pk)) for m in component.metrics.all()
        ]
        if component.pk in days:
            row.bars, row.uptime = uptime_bars(name.text, days[component.pk], language, texts)
        rows.append(row)
    return rows


@dataclass
class MetricCharts:
    row: MetricRow
    charts: list[tuple[str, str]]  # (period name, svg)


def metric_charts(
    metric: Metric,
    *,
    language: str,
    hourly: list[tuple[dt.datetime, float | None]],
    daily: list[tuple[dt.datetime, float | None]],
) -> MetricCharts:
    """A metric over 24 hours, 7 days (hourly rollups) and 90 days (daily rollups)."""
    now = timezone.now()
    row = metric_row(metric, language=language)
    thresholds = [
        charts.Threshold(
            f"status-{status.value}", f"{status.label} {metric_value(metric, limit, language)}", limit
        )
        for status, limit in metric.thresholds()
    ]
    periods = [
        (_("Last 24 hours"), dt.timedelta(hours=24), hourly, Resolution.HOUR),
        (_("Last 7 days"), dt.timedelta(days=7), hourly, Resolution.HOUR),
        (_("Last 90 days"), dt.timedelta(days=90), daily, Resolution.DAY),
    ]
    drawn = []
    for title, length, series, _resolution in periods:
        start = now - length
        points = [(at, v) for at, v in series if at >= start]
        present = [v for _at, v in points if v is not None]
        if present:
            label = _("%(metric)s, %(period)s: from %(low)s to %(high)s, latest %(latest)s") % {
                "metric": row.name.text,
                "period": title.lower(),
                "low": metric_value(metric, min(present), language),
                "high": metric_value(metric, max(present), language),
                "latest": metric_value(metric, present[-1], language),
            }
        else:
            label = _("%(metric)s, %(period)s: no data") % {"metric": row.name.text, "period": title.lower()}
        if thresholds:
            label += "; " + _("thresholds: %(thresholds)s") % {
                "thresholds": ", ".join(t.label for t in thresholds)
            }
        svg = charts.line_chart(
            points,
            start=start,
            end=now,
            thresholds=thresholds,
            label=label,
            start_label=formatting.format_datetime(start, language),
            end_label=formatting.format_datetime(now, language),
            top_label_format=lambda v: metric_value(metric, v, language),
        )
        drawn.append((title, svg))
    return MetricCharts(row=row, charts=drawn)


def time_element(value: dt.datetime | None, human: Callable[[dt.datetime], str]) -> SafeString:
    """A time for people (`human`: formatting.DateTimeFormatter in the page's language), with UTC
    for machines."""
    if value is None:
        return mark_safe("")
    machine = value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return mark_safe(f'<time datetime="{machine}">{html.escape(human(value))}</time>')  # noqa: S308 - escaped


def lang_attribute(text: Shown) -> SafeString:
    """' lang="ru"' for a text shown in another language than the page's, else nothing."""
    return format_html(' lang="{}"', text.language) if text.is_fallback else mark_safe("")


def component_options(components, chosen, language: str) -> SafeString:
    """The <option> of each component (selectors.component_choices rows) for a filter, `chosen`
    selected."""
    return _options(
        language, chosen.slug if chosen else None, tuple((c.slug, c.name_json) for c in components)
    )


@kept(64)
def _options(language: str, chosen: str | None, components: tuple[tuple[str, str], ...]) -> SafeString:
    # Kept by what the list shows: sixty options cost more than the rest of a history page.
    options = []
    for slug, name_json in components:
        name = component_name(name_json, language).text
        selected = " selected" if slug == chosen else ""
        options.append(f'<option value="{html.escape(slug)}"{selected}>{html.escape(name)}</option>')
    return mark_safe("".join(options))  # noqa: S308 - every text above is escaped


@kept(1024)
def component_name(name_json: str, language: str) -> Shown:
    """A component's name (its stored JSON text) in `language`, or its fallback."""
    return pick(json.loads(name_json), language=language, original=Component.original_language)


@cache
def status_labels(language: str) -> dict[str, str]:
    """Incident and maintenance statuses by value, in `language` (not escaped). Pieces kept
    across requests cannot rely on the active language."""
    with translation.override(language):
        return {status.value: str(status.label) for status in IncidentStatus}


def uptime_table_rows(components, by_month: dict[int, list[Span]], language: str) -> SafeString:
    """The rows of the uptime table, one per component (selectors.component_choices rows): its
    uptime, time down and time outside the latency target per month."""
    url = reverse("public:component", args=["-slug-"])
    rows = (
        _uptime_row(
            language,
            url.replace("-slug-", component.slug),
            component.name_json,
            tuple(
                (span.uptime, round(span.down_seconds / 60), round(span.degraded_seconds / 60))
                if span.observed
                else None
                for span in by_month[component.pk]
            ),
        )
        for component in components
    )
    return mark_safe("\n".join(rows))  # noqa: S308 - every text in a row is escaped


@kept(4096)
def _uptime_row(
    language: str, url: str, name_json: str, months: tuple[tuple[float, int, int] | None, ...]
) -> str:
    """One component's row, kept by what it says: (uptime, minutes down, minutes degraded) per
    month, or None for a month with nothing observed."""
    name = component_name(name_json, language)
    cells = "".join(_uptime_cell(*month, language) if month else _no_data_cell(language) for month in months)
    return (
        f'<tr><th scope="row"><a href="{html.escape(url)}"{lang_attribute(name)}>{html.escape(name.text)}</a></th>'
        f"{cells}</tr>"
    )


@cache
def _no_data_cell(language: str) -> str:
    with translation.override(language):
        return f"<td>{html.escape(_('no data'))}</td>"


@kept(4096)
def _uptime_cell(uptime: float, down_minutes: int, degraded_minutes: int, language: str) -> str:
    """One component's month in the uptime table. Kept by what it says: the closed months'
    cells are the same on every render of the page."""
    down, degraded = _uptime_cell_labels(language)
    percent = formatting.format_percent(uptime, language)  # digits and the locale's symbols
    down_for = formatting.format_duration(dt.timedelta(minutes=down_minutes), language)
    degraded_for = formatting.format_duration(dt.timedelta(minutes=degraded_minutes), language)
    return (
        f"<td><strong>{percent}</strong><br><small>{html.escape(down % {'duration': down_for})}"
        f"<br>{html.escape(degraded % {'duration': degraded_for})}</small></td>"
    )


@cache
def _uptime_cell_labels(language: str) -> tuple[str, str]:
    # Cells are cached across requests, so their labels cannot rely on the active language.
    with translation.override(language):
        return _("down %(duration)s"), _("outside latency target %(duration)s")
