"""What the public pages show, built from selector results and formatted in the page's language."""

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from zoneinfo import ZoneInfo

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from incidents import formatting, selectors
from incidents.metrics import readings
from incidents.metrics.uptime import day_starts
from incidents.models import Component, ComponentGroup, ComponentStatus, Incident, Metric
from incidents.public import charts
from incidents.public.components_section import components_section
from incidents.public.links import slug_link
from incidents.public.uptime_bars import overview_bars
from incidents.translation import Shown, pick

UPTIME_DAYS = 90  # days of bars on the overview and component pages
NARROW_DAYS = 30  # of which a phone shows the last (static/css/site.css, Overview)
PAST_DAYS = 15  # days of past incidents under the components, as common status pages list them


def shown(texts: dict, obj=None, *, language: str) -> Shown:
    return pick(texts, language=language, original=getattr(obj, "original_language", None))


@dataclass
class MetricRow:
    metric: Metric
    name: Shown
    value: str  # "1.8 s", "23 min", or "" when there is no current value (no data, or a failed check)
    age: str  # "40 seconds ago": how old the newest sample is
    at: dt.datetime | None = None  # when the newest sample was taken
    sparkline: str = ""
    # From incidents.readings: no sample for 3 intervals (or never) is "no data", never the old value.
    no_data: bool = True
    failed: bool = False  # the newest sample was a failure or timeout
    status: ComponentStatus | None = None  # the metric's own status; None when there is no data
    late: str = ""  # "23 minutes": a latency metric's value when past its degraded threshold
    threshold: str = ""  # "limit 500 ms": the mildest threshold the value is judged against
    exact: str = ""  # "1,380.0 s": the value unscaled, when `value` reads it in another unit
    aggregation: str = ""  # "p95": how the value is aggregated
    # Measured from several regions: "2 of 3 regions agree" when the reporting ones differ.
    agreement: str = ""
    agreement_short: str = ""  # "2/3": what the overview's one line has room for


@dataclass
class ComponentRow:
    component: Component
    name: Shown
    status: ComponentStatus
    metrics: list[MetricRow] = field(default_factory=list)
    bars: str = ""
    uptime: str = ""  # "99.982 %" over the bars' days
    url: str = ""  # the component's own page

    @property
    def late(self) -> MetricRow | None:
        """An operational component's latency metric past its degraded threshold ("up, but 23 min late")."""
        if self.status != ComponentStatus.OPERATIONAL:
            return None
        return next((row for row in self.metrics if row.late), None)


def metric_value(metric: Metric, value: float | None, language: str) -> str:
    if value is None:
        return ""
    return formatting.format_measure(value, metric.unit, language, precision=metric.precision)


def exact_value(metric: Metric, value: float | None, language: str) -> str:
    """The value in the metric's own unit and precision, when metric_value scaled it ("" if not)."""
    if value is None:
        return ""
    exact = formatting.format_exact_measure(value, metric.unit, language, precision=metric.precision)
    return exact if exact != metric_value(metric, value, language) else ""


def threshold_text(metric: Metric, language: str) -> str:
    """ "limit 500 ms" (or "at least 99.9 %" when lower is worse): the mildest threshold."""
    limits = metric.thresholds()
    if not limits:
        return ""
    value = metric_value(metric, limits[0][1], language)
    if metric.higher_is_worse:
        return _("limit %(value)s") % {"value": value}
    return _("at least %(value)s") % {"value": value}


def latency_text(metric: Metric, value: float, language: str) -> str:
    """A delay as people say it ("23 minutes") from a minute on, else the value with its unit."""
    seconds = {"s": value, "ms": value / 1000}.get(metric.unit)
    if seconds is not None and seconds >= 60:
        return formatting.format_duration(dt.timedelta(seconds=seconds), language)
    return metric_value(metric, value, language)


def agreement_text(reading: readings.MetricReading) -> str:
    """ "2 of 3 regions agree" when the regions measuring the metric differ, "" when they all agree."""
    reporting, agreeing = reading.regions_reporting, reading.regions_agreeing
    if reporting < 2 or agreeing == reporting:
        return ""
    if agreeing == 0:
        return _("too few regions report to agree")
    return ngettext(
        "%(agreeing)s of %(reporting)s region agree",
        "%(agreeing)s of %(reporting)s regions agree",
        reporting,
    ) % {"agreeing": agreeing, "reporting": reporting}


def metric_row(
    metric: Metric,
    *,
    language: str,
    hourly: list[float | None] | None = None,
    hours: Sequence[str] = (),
    now: dt.datetime | None = None,
) -> MetricRow:
    """One metric as readers see it (probe and health loaded); `hours` names the hours of `hourly`."""
    name = shown(metric.name, metric, language=language)
    now = now or timezone.now()
    reading = readings.metric_reading(metric, now=now)
    excess = readings.lateness(reading)
    row = MetricRow(
        metric=metric,
        name=name,
        value=metric_value(metric, reading.value, language),
        exact=exact_value(metric, reading.value, language),
        age=formatting.format_age(now - reading.at, language) if reading.at else "",
        at=reading.at,
        no_data=reading.no_data,
        failed=reading.failed,
        status=reading.status,
        late=latency_text(metric, reading.value, language) if excess is not None else "",
        threshold=threshold_text(metric, language),
        aggregation=metric.get_aggregation_display(),
    )
    if not reading.no_data and (agreement := agreement_text(reading)):
        row.agreement = agreement
        row.agreement_short = f"{reading.regions_agreeing}/{reading.regions_reporting}"
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
        if row.threshold:
            label += "; " + row.threshold
        limits = metric.thresholds()
        row.sparkline = charts.sparkline(
            hourly,
            label=label,
            threshold=limits[0][1] if limits else None,
            # What the 24-hour line says of each hour when pointed at: "14:00: 1.8 s".
            readouts=_readouts(metric, zip(hours, hourly, strict=True), language)
            if len(hours) == len(hourly)
            else [],
        )
    return row


def _readouts(metric: Metric, points: Iterable[tuple[str, float | None]], language: str) -> list[str]:
    # Translated once per chart, not once per point: a page of charts looked up hundreds.
    no_data, measured = _("%(time)s: no data"), _("%(time)s: %(value)s")
    return [
        no_data % {"time": when}
        if value is None
        else measured % {"time": when, "value": metric_value(metric, value, language)}
        for when, value in points
    ]


@dataclass
class GroupRow:
    """A group on the overview, folded unless one of its components is not operational."""

    group: ComponentGroup | None  # None for the components outside any group
    status: ComponentStatus  # the worst of its components'
    rows: list[ComponentRow]

    @property
    def key(self) -> str:
        """What static/js/component-groups.js remembers the reader's choice by."""
        return self.group.slug if self.group else ""

    @property
    def affected(self) -> int:
        return sum(1 for row in self.rows if row.status != ComponentStatus.OPERATIONAL)

    @property
    def opens(self) -> bool:
        return self.affected > 0


def component_rows(
    components: list[Component],
    *,
    language: str,
    metrics: Mapping[int, list[Metric]],
    hourly: dict[int, list[float | None]],
    hours: Sequence[str] = (),
    detailed: int | None = None,
) -> list[ComponentRow]:
    """Each component row with its `metrics` (by component id) and showcase bars; past the first
    `detailed`, name and status."""
    now = timezone.now()
    link = slug_link("public:component")
    rows = [
        ComponentRow(
            component=component,
            name=shown(component.name, component, language=language),
            status=ComponentStatus(component.status),
            metrics=[
                metric_row(m, language=language, hourly=hourly.get(m.pk), hours=hours, now=now)
                for m in metrics.get(component.pk, [])
            ]
            if detailed is None or position < detailed
            else [],
            url=link(component.slug),
        )
        for position, component in enumerate(components)
    ]
    showcase = [row for row in rows[:detailed] if row.component.showcase]
    names = {row.component.pk: row.name.text for row in showcase}
    bars = overview_bars([row.component for row in showcase], names, language=language, days=UPTIME_DAYS)
    for row in showcase:
        row.bars, row.uptime = bars[row.component.pk]
    return rows


@dataclass
class MetricCharts:
    row: MetricRow
    charts: list[charts.LineChart]  # 24 hours, 7 days, 90 days
    # Measured from several regions: each region's figures (region_figures.RegionLine).
    regions: list = field(default_factory=list)


def threshold_lines(metric: Metric, language: str) -> list[charts.Threshold]:
    """The lines a metric's chart draws at its status thresholds, labelled with their values."""
    return [
        charts.Threshold(
            f"status-{status.value}", f"{status.label} {metric_value(metric, limit, language)}", limit
        )
        for status, limit in metric.thresholds()
    ]


def _time_label(at: dt.datetime, language: str, *, zone: ZoneInfo | None, dates_only: bool) -> str:
    if not dates_only:
        return formatting.format_datetime(at, language, zone=zone)
    local = formatting.in_zone(at, zone or formatting.status_zone())
    return formatting.format_date(local.date(), language) if local else formatting.utc_text(at)


def metric_line_chart(
    metric: Metric,
    points: list,
    *,
    ident: str,
    title: str,
    name: str,
    summary: str,
    start: dt.datetime,
    end: dt.datetime,
    thresholds: list[charts.Threshold],
    language: str,
    zone: ZoneInfo | None = None,
    dates_only: bool = False,
    daily_points: bool | None = None,
) -> charts.LineChart:
    """The chart of `metric` in `zone`; its `summary` gains the threshold the value is judged against."""
    limit = threshold_text(metric, language)
    if limit:
        summary += "; " + limit
    return charts.line_chart(
        points,
        ident=ident,
        title=title,
        name=name,
        summary=summary,
        start=start,
        end=end,
        thresholds=thresholds,
        start_label=_time_label(start, language, zone=zone, dates_only=dates_only),
        end_label=_time_label(end, language, zone=zone, dates_only=dates_only),
        value_format=lambda v: metric_value(metric, v, language),
        readouts=point_readouts(
            metric,
            points,
            language=language,
            zone=zone,
            daily=dates_only if daily_points is None else daily_points,
        ),
    )


def point_readouts(
    metric: Metric,
    points: Sequence[tuple[dt.datetime, float | None]],
    *,
    language: str,
    zone: ZoneInfo | None,
    daily: bool,
) -> list[str]:
    """What a chart says of each point when pointed at: "Mar 4, 14:00: 1.8 s" ("Mar 4, 2026: …" daily)."""
    zone = zone or formatting.status_zone()
    return _readouts(
        metric, ((_point_time(at, language, zone, daily), value) for at, value in points), language
    )


# The same hours and days are labelled on every chart and every render (a 7-day chart has 168):
# writing them anew with Babel was half the cost of a component page's charts (docs/public-site.md).
@lru_cache(maxsize=8192)
def _point_time(at: dt.datetime, language: str, zone: ZoneInfo, daily: bool) -> str:
    if daily:
        return _time_label(at, language, zone=zone, dates_only=True)
    return formatting.format_day_time(at, language, zone=zone)


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
    thresholds = threshold_lines(metric, language)
    periods = [
        ("24h", _("Last 24 hours"), dt.timedelta(hours=24), hourly),
        ("7d", _("Last 7 days"), dt.timedelta(days=7), hourly),
        ("90d", _("Last 90 days"), dt.timedelta(days=90), daily),
    ]
    drawn = []
    for key, title, length, series in periods:
        start = now - length
        points = [(at, v) for at, v in series if at >= start]
        present = [v for _at, v in points if v is not None]
        if present:
            summary = _("%(metric)s, %(period)s: from %(low)s to %(high)s, latest %(latest)s") % {
                "metric": row.name.text,
                "period": title.lower(),
                "low": metric_value(metric, min(present), language),
                "high": metric_value(metric, max(present), language),
                "latest": metric_value(metric, present[-1], language),
            }
        else:
            summary = _("%(metric)s, %(period)s: no data") % {
                "metric": row.name.text,
                "period": title.lower(),
            }
        chart = metric_line_chart(
            metric,
            points,
            ident=f"chart-{metric.pk}-{key}",
            title=title,
            name=_("Chart of %(metric)s, %(period)s") % {"metric": row.name.text, "period": title.lower()},
            summary=summary,
            start=start,
            end=now,
            thresholds=thresholds,
            language=language,
            dates_only=length > dt.timedelta(days=1),
            daily_points=series is daily,
        )
        drawn.append(chart)
    return MetricCharts(row=row, charts=drawn)


def overview_context(language: str) -> dict:
    """The overview: indicator, open events, the components section and the past days' events."""
    starts = day_starts(days=PAST_DAYS, now=timezone.now(), zone=formatting.status_zone())
    overview = selectors.overview_summary(past_since=starts[0])
    summary = overview.summary
    return {
        "summary": summary,
        "components_section": components_section(
            summary.groups,
            language=language,
            days=UPTIME_DAYS,
            draw=lambda: render_to_string(
                "public/_components_section.html", components_section_context(summary, language)
            ),
        ),
        "past_days": past_days(overview.past_events, starts[:-1], language),
    }


def components_section_context(summary: selectors.PageSummary, language: str) -> dict:
    """Each shown component's row in its group, the first ones with their bars and sparklines."""
    shown_components = [c for g in summary.groups for c in g.components]
    # A page of hundreds of components drew megabytes of bars: the first ones in page order get
    # their bars and sparklines, the others their name and status (their own pages have the rest).
    detailed = settings.PUBLIC_OVERVIEW_DETAILED_COMPONENTS
    metrics = selectors.overview_metrics(shown_components[:detailed])
    hourly = selectors.hourly_values([m for found in metrics.values() for m in found])
    hours = [formatting.format_clock_time(start, language) for start in selectors.hour_starts()]
    rows = iter(
        component_rows(
            shown_components,
            language=language,
            metrics=metrics,
            hourly=hourly,
            hours=hours,
            detailed=detailed,
        )
    )
    groups = [
        GroupRow(group=view.group, status=view.status, rows=[next(rows) for _component in view.components])
        for view in summary.groups
    ]
    return {
        "groups": groups,
        "has_components": bool(summary.components),
        "undetailed_components": max(len(shown_components) - detailed, 0),
        "detailed_components": detailed,
        "uptime_days": UPTIME_DAYS,
        "narrow_days": NARROW_DAYS,
    }


@dataclass
class Month:
    label: str  # "November 2026"
    events: list[Incident]


def history_months(events: list[Incident], language: str) -> list[Month]:
    """Events (newest first) gathered by the month they started in, in the status page's zone."""
    zone = formatting.status_zone()
    months: list[Month] = []
    current = None
    for event in events:
        local = formatting.in_zone(event.started_at, zone) or event.started_at
        if (local.year, local.month) != current:
            current = (local.year, local.month)
            months.append(Month(formatting.format_month(local.date(), language), []))
        months[-1].events.append(event)
    return months


@dataclass
class PastDay:
    label: str  # "Dec 2, 2026"
    events: list[Incident]  # begun that day, newest first; none on a quiet day


def past_days(events: list[Incident], starts: list[dt.datetime], language: str) -> list[PastDay]:
    """The days opening at `starts` (oldest first), newest first, each with the events begun on it."""
    by_day: dict[dt.date, list[Incident]] = {}
    for event in events:
        by_day.setdefault(event.started_at.astimezone(starts[0].tzinfo).date(), []).append(event)
    return [
        PastDay(formatting.format_date(start.date(), language), by_day.get(start.date(), []))
        for start in reversed(starts)
    ]
