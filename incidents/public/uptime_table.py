"""The uptime page's table: per component and month its uptime, time down and degraded, and target."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

from incidents import formatting
from incidents.metrics.uptime import SHOWN_DECIMALS, Span, month_uptime, observed_from, shown_uptime
from incidents.models import Component
from incidents.translation import Shown, pick


@dataclass
class UptimeCell:
    month: str  # "March 2026": the column, for the stacked layout on a phone
    uptime: str = ""  # "99.98 %"; "" before the component's first record or measurement
    down: str = ""  # "1 day, 7 hours, and 12 minutes"; "" when it was never down
    degraded: str = ""  # time outside the latency target; "" when there was none
    verdict: str = ""  # "met", "missed", "met so far"…; "" without a target
    met: bool | None = None


@dataclass
class UptimeRow:
    component: Component
    name: Shown
    target: str  # "99.90 %", or "" without a target
    months: list[UptimeCell]


def target_text(target: Decimal, language: str) -> str:
    """ "99.90 %": two decimals, three when the target has them."""
    precision = 3 if target.quantize(Decimal("0.001")) != target.quantize(Decimal("0.01")) else 2
    return formatting.format_percent(float(target), language, precision=precision)


def verdict(shown: Decimal, target: Decimal, *, running: bool) -> tuple[str, bool]:
    """Whether the month met its target, judged on the figure shown."""
    met = shown >= target
    if running:
        return (_("met so far") if met else _("missed so far")), met
    return (_("met") if met else _("missed")), met


def uptime_rows(
    components: list[Component],
    by_month: dict[int, list[Span]],
    months: list[dt.datetime],
    language: str,
    *,
    now: dt.datetime,
    first_status: dict[int, dt.datetime],
) -> list[UptimeRow]:
    """One row per component; a month before its first status period says "no data"."""

    def duration(seconds: float) -> str:
        return formatting.format_long_duration(seconds, language) if seconds > 0 else ""

    labels = [formatting.format_month(m.date(), language) for m in months]
    zone = formatting.status_zone()
    rows = []
    for component in components:
        target = component.uptime_target
        begun = first_status.get(component.pk)
        counted_from = observed_from(component.start_date, zone)
        cells: list[UptimeCell] = []
        for label, span in zip(labels, by_month[component.pk], strict=True):
            if begun is None or begun >= span.end or (counted_from and counted_from >= span.end):
                cells.append(UptimeCell(label))
                continue
            uptime = month_uptime(span, now=now, counted_from=counted_from)
            shown = shown_uptime(uptime, down_seconds=span.down_seconds)
            cell = UptimeCell(
                label,
                formatting.format_percent(float(shown), language, precision=SHOWN_DECIMALS),
                duration(span.down_seconds),
                duration(span.degraded_seconds),
            )
            if target is not None:
                cell.verdict, cell.met = verdict(shown, target, running=span.end > now)
            cells.append(cell)
        rows.append(
            UptimeRow(
                component=component,
                name=pick(component.name, language=language, original=component.original_language),
                target=target_text(target, language) if target is not None else "",
                months=cells,
            )
        )
    return rows
