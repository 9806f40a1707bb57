"""Charts and bars as inline SVG drawn on the server: no JavaScript, a text alternative each.

The functions here only draw: callers pass values and the texts (already translated and
formatted) that describe them. Colours come from CSS classes; every chart carries an
`aria-label` and a `<title>`, and every bar its own `<title>`, so nothing is said by colour alone.
"""

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


@dataclass(frozen=True)
class Bar:
    css_class: str  # status-operational, status-major_outage, … or status-none for no data
    text: str  # what the bar says to a screen reader and in its tooltip
    href: str | None = None
    days: int = 1  # quiet days in a row share one text ("Dec 1 – Dec 20, 2025: Operational")


@dataclass(frozen=True)
class Threshold:
    css_class: str
    label: str
    value: float


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


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
    values: Sequence[float | None], *, label: str, width: int = 120, height: int = 28
) -> SafeString:
    """A small line of `values` (oldest first); `label` is its text alternative."""
    present = [v for v in values if v is not None]
    label = escape(label)
    head = (
        f'<svg class="sparkline" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{label}" focusable="false"><title>{label}</title>'
    )
    if not present:
        return mark_safe(head + "</svg>")  # every text escaped above
    low, high = min(present), max(present)
    spread = (high - low) or 1.0
    step = width / max(len(values) - 1, 1)
    points = [
        (i * step, None if v is None else height - 2 - (v - low) / spread * (height - 4))
        for i, v in enumerate(values)
    ]
    return mark_safe(head + _polylines(_segments(points), "line") + "</svg>")


def line_chart(
    points: Sequence[tuple[dt.datetime, float | None]],
    *,
    start: dt.datetime,
    end: dt.datetime,
    thresholds: Sequence[Threshold],
    label: str,
    start_label: str,
    end_label: str,
    top_label_format=_number,
    width: int = 640,
    height: int = 180,
) -> SafeString:
    """A metric over time with its thresholds drawn as dashed lines; `label` describes it."""
    margin_left, margin_bottom, margin_top = 48, 20, 8
    plot_w, plot_h = width - margin_left - 4, height - margin_bottom - margin_top
    values = [v for _t, v in points if v is not None]
    # Scaled to the data and the mildest threshold, so a 900 s outage line does not flatten
    # a 2 s curve; thresholds above the top are named in a corner instead of drawn.
    limits = sorted(t.value for t in thresholds)
    top = max([*values, *limits[:1], 0.0]) * 1.15 or 1.0
    span = (end - start).total_seconds() or 1.0

    def x(at: dt.datetime) -> float:
        return margin_left + (at - start).total_seconds() / span * plot_w

    def y(value: float) -> float:
        return margin_top + plot_h - value / top * plot_h

    label = escape(label)
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="{label}" '
        f'focusable="false" preserveAspectRatio="none"><title>{label}</title>',
        f'<line class="axis" x1="{margin_left}" y1="{margin_top + plot_h}" x2="{width - 4}" y2="{margin_top + plot_h}"/>',
        f'<text class="tick" x="{margin_left - 4}" y="{margin_top + 8}" text-anchor="end">{escape(top_label_format(top))}</text>',
        f'<text class="tick" x="{margin_left - 4}" y="{margin_top + plot_h}" text-anchor="end">0</text>',
        f'<text class="tick" x="{margin_left}" y="{height - 4}">{escape(start_label)}</text>',
        f'<text class="tick" x="{width - 4}" y="{height - 4}" text-anchor="end">{escape(end_label)}</text>',
    ]
    above = [t for t in thresholds if t.value > top]
    if above:
        names = "; ".join(f"{t.label} ↑" for t in above)
        parts.append(
            f'<text class="tick threshold-label" x="{width - 6}" y="{margin_top + 8}" text-anchor="end">{escape(names)}</text>'
        )
    for threshold in thresholds:
        if threshold.value > top:
            continue
        ty = _number(y(threshold.value))
        parts.append(
            f'<line class="threshold {threshold.css_class}" x1="{margin_left}" y1="{ty}" x2="{width - 4}" y2="{ty}" '
            f'stroke-dasharray="6 4"/><text class="tick threshold-label" x="{width - 6}" y="{_number(y(threshold.value) - 3)}" '
            f'text-anchor="end">{escape(threshold.label)}</text>'
        )
    scaled = [(x(at), None if v is None else y(v)) for at, v in points]
    parts.append(_polylines(_segments(scaled), "line"))
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text escaped above


def uptime_bars(
    bars: Sequence[Bar], *, label: str, bar_width: int = 3, gap: int = 1, height: int = 28
) -> SafeString:
    """One bar per day, oldest first; each has its own text, and days with incidents link to them."""
    width = sum(bar.days for bar in bars) * (bar_width + gap)
    label = escape(label)
    parts = [
        # A group, not an image: an image's children are hidden from assistive technology,
        # and the links inside must stay reachable by keyboard and screen reader.
        f'<svg class="bars" viewBox="0 0 {width} {height}" preserveAspectRatio="none" role="group" '
        f'aria-label="{label}" stroke-width="{height}" stroke-dasharray="{bar_width} {gap}">'
        f"<title>{label}</title>"
    ]
    # A run of days is one dashed path (dash: a day's bar, gap: the space between days), not a
    # rectangle per day: 60 components × 90 days of rectangles made most of the overview's bytes.
    middle, step, position = height / 2, bar_width + gap, 0
    for bar in bars:
        x1, x2 = position * step, (position + bar.days) * step - gap
        position += bar.days
        line = f'<path class="{bar.css_class}" d="M{x1} {middle:g}h{x2 - x1}"/>'
        text = escape(bar.text)
        if bar.href:
            parts.append(f'<a href="{escape(bar.href)}" aria-label="{text}"><title>{text}</title>{line}</a>')
        else:
            parts.append(f"<g><title>{text}</title>{line}</g>")
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text escaped above
