"""The day bars of the overview and component pages: what each bar says, in the page's
language, with quiet days gathered in runs; drawn by incidents.public.charts."""

import datetime as dt

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from incidents import formatting
from incidents.metrics.uptime import Span, overall
from incidents.models import ComponentStatus
from incidents.public import charts
from incidents.translation import pick

NO_DATA = "none"


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
