"""The day bars of the overview and component pages: what each day says and where it leads."""

import datetime as dt
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from incidents import formatting, selectors
from incidents.metrics.uptime import SHOWN_DECIMALS, Span, overall, shown_uptime
from incidents.models import Component, ComponentStatus
from incidents.public import charts, fragment_cache, versions
from incidents.translation import pick

# Fragment caches (by content version, and by the days' own data); that each pays is measured in
# docs/public-site.md. The bound covers status periods edited by hand and a new deployment's markup.
PAST_DAYS_SECONDS = 600


class BarTexts:
    """The texts of day bars in one language, each date and label formatted once per page: Babel
    for every one of 90 bars of dozens of components would cost more than the rest of the page."""

    def __init__(self, language: str):
        self.language = language
        self._days: dict[dt.date, str] = {}
        self._durations: dict[int, str] = {}
        self._labels = {status: str(status.label) for status in ComponentStatus}
        self._no_data = _("%(day)s: no data")
        self._links: dict[str, str] = {}
        self._components: dict[str, str] = {}
        self._degraded = _("degraded for %(duration)s")
        self._down = _("down for %(duration)s")
        self._maintenance = _("under maintenance for %(duration)s")
        self._history = reverse("public:history")

    def day(self, date: dt.date) -> str:
        if date not in self._days:
            self._days[date] = formatting.format_date(date, self.language)
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

    def history(self, date: dt.date, component_slug: str) -> str:
        """That day's history of one component: the day's detail without JavaScript."""
        # The component's part is encoded once a bar: urlencode for each of 90 days of dozens of
        # components was most of drawing them. An ISO date needs no quoting.
        component = self._components.get(component_slug)
        if component is None:
            component = self._components[component_slug] = urlencode({"component": component_slug})
        day = date.isoformat()
        return f"{self._history}?from={day}&to={day}&{component}"

    def text(self, span: Span) -> str:
        """What one day's bar says: its date, worst status, time degraded, down and in maintenance."""
        day = self.day(span.date)
        worst = span.worst
        if worst is None:
            return self._no_data % {"day": day}
        parts = [f"{day}: {self._labels[worst]}"]
        if span.degraded_seconds >= 60:
            parts.append(self._degraded % {"duration": self.duration(span.degraded_seconds)})
        if span.down_seconds >= 60:
            parts.append(self._down % {"duration": self.duration(span.down_seconds)})
        maintenance = span.seconds.get(ComponentStatus.UNDER_MAINTENANCE.value, 0.0)
        if maintenance >= 60:
            parts.append(self._maintenance % {"duration": self.duration(maintenance)})
        if span.incidents:
            parts.append(
                ngettext("%(count)d incident", "%(count)d incidents", len(span.incidents))
                % {"count": len(span.incidents)}
            )
        return "; ".join(parts)

    def incidents(self, span: Span) -> tuple[tuple[str, str], ...]:
        return tuple(
            (
                self.link(row["incident__slug"]),
                pick(
                    row["incident__title"],
                    language=self.language,
                    original=row["incident__original_language"],
                ).text,
            )
            for row in span.incidents
        )


def _day(span: Span, texts: BarTexts, component_slug: str) -> charts.Day:
    worst = span.worst
    return charts.Day(
        status=worst.value if worst else charts.NO_DATA,
        text=texts.text(span),
        href=texts.history(span.date, component_slug),
        incidents=texts.incidents(span),
    )


def _drawn(component_name: str, items: str, total: Span | None, days: int, language: str):
    named = {"component": component_name, "days": days}
    if total is None or total.uptime is None:
        return charts.day_bars(items, label=_("%(component)s, last %(days)d days: no data yet") % named), ""
    shown = shown_uptime(total.uptime, down_seconds=total.down_seconds)
    percent = formatting.format_percent(float(shown), language, precision=SHOWN_DECIMALS)
    label = _("%(component)s, last %(days)d days: %(uptime)s uptime, one bar per day") % {
        **named,
        "uptime": percent,
    }
    return charts.day_bars(items, label=label), percent


def uptime_bars(
    component_name: str, days: list[Span], language: str, *, slug: str, texts: BarTexts | None = None
) -> tuple[str, str]:
    """The day bars of one component and its uptime over those days as text."""
    texts = texts or BarTexts(language)
    items = charts.day_items([_day(span, texts, slug) for span in days])
    return _drawn(component_name, items, overall(days), len(days), language)


@dataclass(frozen=True)
class PastDays:
    """One component's drawn bars before today, with the seconds per status today's figures add to."""

    items: str
    days: int
    seconds: dict[str, float]
    start: dt.datetime


def past_days(days: list[Span], texts: BarTexts, component_slug: str) -> PastDays:
    total = overall(days)
    return PastDays(
        items=charts.day_items([_day(span, texts, component_slug) for span in days], ends_bar=False),
        days=len(days),
        seconds=total.seconds,
        start=total.start,
    )


def bars_with_today(
    component_name: str, past: PastDays, today: Span, texts: BarTexts, component_slug: str
) -> tuple[str, str]:
    """The bars and uptime of `past_days` followed by today's bar, as uptime_bars draws them."""
    items = past.items + charts.day_items([_day(today, texts, component_slug)])
    total = overall([Span(past.start, today.start, past.seconds), today])
    return _drawn(component_name, items, total, past.days + 1, texts.language)


def overview_bars(
    components: Sequence[Component], names: dict[int, str], *, language: str, days: int
) -> dict[int, tuple[str, str]]:
    """Each component's bars and uptime; the days before today are kept in the cache, today is read live."""
    now = timezone.now()
    texts = BarTexts(language)
    key = _past_days_key(components, language=language, days=days, now=now)
    past = _kept(key)
    if past is None:
        spans = selectors.uptime_days(components, days=days, now=now)
        past = _drawn_past_days(components, spans, texts, cached=key is not None)
        today = {pk: component_spans[-1] for pk, component_spans in spans.items()}
        _keep(key, past)
    else:
        today = {pk: spans[0] for pk, spans in selectors.uptime_days(components, days=1, now=now).items()}
    return {c.pk: bars_with_today(names[c.pk], past[c.pk], today[c.pk], texts, c.slug) for c in components}


def _drawn_past_days(
    components: Sequence[Component], spans: dict[int, list[Span]], texts: BarTexts, *, cached: bool
) -> dict[int, PastDays]:
    """Each component's days before today, drawn again only if what they show changed: kept under
    their own data rather than the content version, so a content change redraws only the bars it
    touched (an update to an incident that began today touches none)."""
    keys = {c.pk: _shown_days_key(c.slug, spans[c.pk][:-1], texts.language) for c in components}
    found = fragment_cache.kept_many(list(keys.values())) if cached else {}
    past, drawn = {}, {}
    for component in components:
        key = keys[component.pk]
        past[component.pk] = found.get(key) or past_days(spans[component.pk][:-1], texts, component.slug)
        if key not in found:
            drawn[key] = past[component.pk]
    if cached:
        fragment_cache.keep_many(drawn, seconds=PAST_DAYS_SECONDS)
    return past


def _shown_days_key(component_slug: str, days: list[Span], language: str) -> str:
    shown = repr([(span.start, span.seconds, span.incidents) for span in days])
    digest = hashlib.sha256(shown.encode()).hexdigest()[:32]
    return f"public:past-days:shown:{language}:{component_slug}:{digest}"


def _past_days_key(
    components: Sequence[Component], *, language: str, days: int, now: dt.datetime
) -> str | None:
    """None while the cache server is unreachable."""
    version = versions.page_version_or_none(live=False)
    if version is None:
        return None
    today = now.astimezone(formatting.status_zone()).date()
    ids = hashlib.sha256(",".join(str(c.pk) for c in components).encode()).hexdigest()[:16]
    return f"public:past-days:drawn:{version}:{language}:{today.isoformat()}:{days}:{ids}"


def _kept(key: str | None) -> dict[int, PastDays] | None:
    return None if key is None else fragment_cache.kept_many([key]).get(key)


def _keep(key: str | None, past: dict[int, PastDays]) -> None:
    if key is not None:
        fragment_cache.keep_many({key: past}, seconds=PAST_DAYS_SECONDS)
