"""Charts as inline SVG and day bars as HTML lists, from values and texts the callers translated.

Colours come from CSS classes; every chart has a text alternative, each threshold line its own
dash pattern and every day bar its own text, so nothing is said by colour alone.
"""

import datetime as dt
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


@dataclass(frozen=True)
class Day:
    status: str  # operational, major_outage, … or none for no data
    text: str  # what the day says: its link's text and the first line of its popover
    href: str  # that day's history, the detail without JavaScript
    incidents: tuple[tuple[str, str], ...] = ()  # (href, title) of the day's incidents

    @property
    def is_quiet(self) -> bool:
        """Operational or without data, and no incident: its history says nothing its text does not."""
        return self.status in (QUIET_STATUS, NO_DATA) and not self.incidents


QUIET_STATUS = "operational"  # a bar's usual day, drawn without a class
NO_DATA = "none"


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _round_up(value: float) -> float:
    """The next round number for an axis's top: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten."""
    if value <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(value))
    return next(
        round(step * power, 12) for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10) if step * power >= value
    )


def _segments(points: Sequence[tuple[float, float | None]]) -> list[list[tuple[float, float]]]:
    """Runs of consecutive points with a value; a missing value breaks the line."""
    runs: list[list[tuple[float, float]]] = [[]]
    for x, y in points:
        if y is None:
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append((x, y))
    return [run for run in runs if run]


def _polylines(runs, css_class: str) -> str:
    parts = []
    for run in runs:
        if len(run) == 1:
            x, y = run[0]
            parts.append(f'<circle class="{css_class}" cx="{_number(x)}" cy="{_number(y)}" r="1.5"/>')
        else:
            coords = " ".join(f"{_number(x)},{_number(y)}" for x, y in run)
            parts.append(f'<polyline class="{css_class}" fill="none" points="{coords}"/>')
    return "".join(parts)


def sparkline(
    values: Sequence[float | None],
    *,
    label: str,
    threshold: float | None = None,
    readouts: Sequence[str] = (),
    width: int = 120,
    height: int = 28,
) -> SafeString:
    """A small line of `values` with `threshold` dashed across, scaled to take it in so the gap reads true."""
    present = [v for v in values if v is not None]
    label = escape(label)
    data = f' data-readouts="{escape(json.dumps(list(readouts), ensure_ascii=False))}"' if readouts else ""
    head = (
        f'<svg class="sparkline" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{label}" focusable="false"{data}><title>{label}</title>'
    )
    if not present:
        return mark_safe(head + "</svg>")  # every text escaped above
    bounds = [*present, *([threshold] if threshold is not None else [])]
    low, high = min(bounds), max(bounds)
    spread = (high - low) or 1.0
    low, high = low - spread * 0.1, high + spread * 0.1
    spread = high - low

    def y(value: float) -> float:
        return height - 2 - (value - low) / spread * (height - 4)

    step = width / max(len(values) - 1, 1)
    points = [(i * step, None if v is None else y(v)) for i, v in enumerate(values)]
    limit = ""
    if threshold is not None:
        ty = _number(y(threshold))
        limit = f'<line class="threshold" x1="0" y1="{ty}" x2="{width}" y2="{ty}" stroke-dasharray="3 2"/>'
    return mark_safe(head + limit + _polylines(_segments(points), "line") + "</svg>")


@dataclass(frozen=True)
class Threshold:
    css_class: str  # status-degraded_performance, …: its colour
    label: str  # "Degraded performance 800 ms"
    value: float


# Each status's line has its own dash pattern, so the lines differ without colour (WCAG 1.4.1);
# the legend draws the same pattern beside each label.
DASHES = {
    "status-degraded_performance": "8 4",
    "status-partial_outage": "2 3",
    "status-major_outage": "12 3 2 3",
}
DEFAULT_DASH = "4 4"


@dataclass(frozen=True)
class LegendEntry:
    css_class: str
    label: str
    dash: str
    above: bool  # above the chart's scale: named, not drawn


@dataclass(frozen=True)
class LineChart:
    """A chart for public/_line_chart.html: the SVG holds only lines, every text is HTML beside it,
    so it keeps the page's font size on a phone and never collides with another label."""

    ident: str  # unique on the page: the summary's id derives from it
    title: str  # the figure's caption: "Last 24 hours"
    name: str  # the chart's accessible name
    summary: str  # its text alternative: range, latest value, the threshold judged against
    svg: SafeString
    y_top: str
    y_bottom: str
    x_start: str
    x_end: str
    legend: tuple[LegendEntry, ...]


def line_chart(
    points: Sequence[tuple[dt.datetime, float | None]],
    *,
    ident: str,
    title: str,
    name: str,
    summary: str,
    start: dt.datetime,
    end: dt.datetime,
    thresholds: Sequence[Threshold],
    start_label: str,
    end_label: str,
    value_format=_number,
    readouts: Sequence[str] = (),
    width: int = 640,
    height: int = 180,
) -> LineChart:
    """A metric over time, its thresholds dashed; `readouts` (one per point) for chart-readouts.js."""
    margin = 6  # room for the strokes at the top and bottom edges
    plot_h = height - 2 * margin
    values = [v for _t, v in points if v is not None]
    # Scaled to the data and the mildest threshold, so a 900 s outage line does not flatten
    # a 2 s curve; thresholds above the top are named in the legend instead of drawn.
    limits = sorted(t.value for t in thresholds)
    top = _round_up(max([*values, *limits[:1], 0.0]) * 1.1)
    span = (end - start).total_seconds() or 1.0

    def x(at: dt.datetime) -> float:
        return (at - start).total_seconds() / span * width

    def y(value: float) -> float:
        return margin + plot_h - value / top * plot_h

    base = _number(margin + plot_h)
    described_by = f"{ident}-summary {ident}-legend" if thresholds else f"{ident}-summary"
    data = ""
    if readouts and len(readouts) == len(points):
        places = [float(_number(x(at))) for at, _v in points]
        data = (
            f' data-readouts="{escape(json.dumps(list(readouts), ensure_ascii=False))}"'
            f' data-readout-x="{escape(json.dumps(places))}"'
        )
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="{escape(name)}" '
        f'aria-describedby="{escape(described_by)}" focusable="false" preserveAspectRatio="none"{data}>',
        f'<line class="axis" x1="0" y1="{base}" x2="{width}" y2="{base}"/>',
        f'<line class="axis" x1="0" y1="{margin}" x2="0" y2="{base}"/>',
    ]
    legend = []
    for threshold in thresholds:
        dash = DASHES.get(threshold.css_class, DEFAULT_DASH)
        above = threshold.value > top
        legend.append(LegendEntry(threshold.css_class, threshold.label, dash, above))
        if not above:
            ty = _number(y(threshold.value))
            parts.append(
                f'<line class="threshold {escape(threshold.css_class)}" x1="0" y1="{ty}" x2="{width}" '
                f'y2="{ty}" stroke-dasharray="{dash}"/>'
            )
    scaled = [(x(at), None if v is None else y(v)) for at, v in points]
    parts.append(_polylines(_segments(scaled), "line"))
    parts.append("</svg>")
    return LineChart(
        ident=ident,
        title=title,
        name=name,
        summary=summary,
        svg=mark_safe("".join(parts)),  # every text escaped above
        y_top=value_format(top),
        y_bottom=value_format(0.0),
        x_start=start_label,
        x_end=end_label,
        legend=tuple(legend),
    )


def day_items(days: Sequence[Day], *, ends_bar: bool = True) -> str:
    """The list items of `days`, oldest first. A bar is one Tab stop, its last day (`ends_bar`): days
    are too narrow on a phone to be separate touch targets (WCAG 2.5.8); arrow keys move between
    them. A day that had something to tell links to its history, its incidents hidden beside it for
    day-bars.js's popover; a quiet day carries only its text, which day-bars.js turns into the
    bar's last link with its own date (a link per day was two thirds of the overview's weight; an
    `<a>` without href would be an uncrawlable link to Lighthouse)."""
    parts = []
    for index, day in enumerate(days, start=1):
        ends = ends_bar and index == len(days)
        status = "" if day.status == QUIET_STATUS else f' class="status-{day.status}"'
        if day.is_quiet and not ends:
            parts.append(f"<li{status}><span>{escape(day.text)}</span></li>")
            continue
        stop = "" if ends else ' tabindex="-1"'
        parts.append(f'<li{status}><a href="{escape(day.href)}"{stop}>{escape(day.text)}</a>')
        if day.incidents:
            links = "".join(
                f'<li><a href="{escape(href)}">{escape(title)}</a></li>' for href, title in day.incidents
            )
            parts.append(f"<ul hidden>{links}</ul>")
        parts.append("</li>")
    return "".join(parts)


def day_bars(items: str, *, label: str) -> SafeString:
    """One bar per day (list items from day_items), oldest first, named by `label`."""
    # HTML rather than SVG shapes: each day is reachable by keyboard and touch, and its pattern
    # and colour come from CSS (status-* classes), light and dark.
    return mark_safe(f'<ol class="days" aria-label="{escape(label)}">{items}</ol>')  # texts escaped
