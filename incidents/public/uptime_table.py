"""The uptime page's table: per component and month its uptime, time down, time degraded and,
when the component has a target, whether the month met it."""

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

from incidents import formatting
from incidents.metrics.uptime import Span
from incidents.models import Component
from incidents.translation import Shown, pick

# Uptime is shown with three decimals, and a month is judged on the figure shown.
SHOWN_DECIMALS = 3


@dataclass
class UptimeCell:
    month: str  # "March 2026": the column, for the stacked layout on a phone
    uptime: str = ""  # "99.982 %"; "" when nothing was observed that month
    down: str = ""  # "12 minutes"
    degraded: str = ""  # time outside the latency target
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


def verdict(uptime: float, target: Decimal, *, running: bool) -> tuple[str, bool]:
    met = round(uptime, SHOWN_DECIMALS) >= float(target)
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
) -> list[UptimeRow]:
    def minutes(seconds: float) -> str:
        return formatting.format_duration(dt.timedelta(minutes=round(seconds / 60)), language)

    labels = [formatting.format_month(m.date(), language) for m in months]
    rows = []
    for component in components:
        target = component.uptime_target
        cells: list[UptimeCell] = []
        for label, span in zip(labels, by_month[component.pk], strict=True):
            if not span.observed:
                cells.append(UptimeCell(label))
                continue
            cell = UptimeCell(
                label,
                formatting.format_percent(span.uptime, language, precision=SHOWN_DECIMALS),
                minutes(span.down_seconds),
                minutes(span.degraded_seconds),
            )
            if target is not None:
                cell.verdict, cell.met = verdict(span.uptime, target, running=span.end > now)
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
