"""The rows of incident and maintenance lists (the history and maintenance pages).

Each row is written by a function of exactly what it shows (its title and component names as
their stored JSON text, its times and statuses, the language, the zone and the link) and kept
by those inputs (incidents.kept), so a page writes only the rows that changed.
"""

import datetime as dt
import html
import json
from dataclasses import dataclass
from functools import cache
from zoneinfo import ZoneInfo

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from incidents import formatting
from incidents.kept import kept
from incidents.models import Impact, IncidentKind
from incidents.presentation import component_name, lang_attribute, status_labels, time_element
from incidents.translation import pick

ROWS_KEPT = 8192  # a few hundred bytes each


@dataclass(frozen=True)
class ListContext:
    """What every row of one page shares: its language, the zone its times are shown in, and
    the incident link with "-slug-" where the slug goes."""

    language: str
    zone: str
    incident_url: str

    @classmethod
    def current(cls, language: str) -> "ListContext":
        return cls(language, settings.STATUS_TIME_ZONE, reverse("public:incident", args=["-slug-"]))


def history_sections(events: list[dict], affected: dict[int, tuple[str, ...]], language: str) -> SafeString:
    """History rows (selectors.EVENT_FIELDS rows and their components' names) in one <section>
    per month their event started in (in the status page's zone), or nothing."""
    context = ListContext.current(language)
    zone = ZoneInfo(context.zone)
    months: list[tuple[str, list[str]]] = []
    current = None
    for event in events:
        local = formatting.in_zone(event["started_at"], zone) or event["started_at"]
        if (local.year, local.month) != current:
            current = (local.year, local.month)
            months.append((formatting.format_month(local.date(), language), []))
        months[-1][1].append(
            history_item(
                context,
                slug=event["slug"],
                title=event["title_json"],
                original_language=event["original_language"],
                kind=event["kind"],
                impact=event["impact"],
                status=event["status"],
                started_at=event["started_at"],
                resolved_at=event["resolved_at"],
                affected=affected.get(event["pk"], ()),
            )
        )
    return mark_safe(  # noqa: S308 - labels and rows are escaped
        "\n".join(
            _month_section(number, label, items) for number, (label, items) in enumerate(months, start=1)
        )
    )


def _month_section(number: int, label: str, items: list[str]) -> str:
    rows = "\n".join(items)
    return (
        f'<section aria-labelledby="month-{number}"><h2 id="month-{number}">{html.escape(label)}</h2>\n'
        f'<ul class="history">\n{rows}\n</ul></section>'
    )


def maintenance_articles(
    events: list[dict], affected: dict[int, tuple[str, ...]], language: str
) -> SafeString:
    """One <article> per maintenance window (selectors.EVENT_FIELDS rows)."""
    context = ListContext.current(language)
    return mark_safe(  # noqa: S308 - articles escape every text
        "\n".join(
            maintenance_article(
                context,
                slug=event["slug"],
                title=event["title_json"],
                original_language=event["original_language"],
                status=event["status"],
                scheduled_for=event["scheduled_for"],
                scheduled_until=event["scheduled_until"],
                affected=affected.get(event["pk"], ()),
            )
            for event in events
        )
    )


@kept(ROWS_KEPT)
def history_item(
    context: ListContext,
    *,
    slug: str,
    title: str,
    original_language: str,
    kind: str,
    impact: str,
    status: str,
    started_at: dt.datetime,
    resolved_at: dt.datetime | None,
    affected: tuple[str, ...],
) -> str:
    """ "<li>Title · Minor · Resolved · <time>…</time> – <time>…</time> · API, Dashboard</li>"."""
    labels, human = _labels(context.language), _formatter(context.language, context.zone)
    what = labels.maintenance if kind == IncidentKind.MAINTENANCE else labels.impacts[impact]
    ended = f" – {time_element(resolved_at, human)}" if resolved_at else ""
    names = _names(affected, context.language)
    return (
        f"<li>{_link(context, slug, title, original_language)} "
        f'<span class="meta">{what} · {labels.statuses[status]} · {time_element(started_at, human)}{ended}</span>'
        f"{f'<span class="affected">{html.escape(names)}</span>' if names else ''}</li>"
    )


@kept(ROWS_KEPT)
def maintenance_article(
    context: ListContext,
    *,
    slug: str,
    title: str,
    original_language: str,
    status: str,
    scheduled_for: dt.datetime | None,
    scheduled_until: dt.datetime | None,
    affected: tuple[str, ...],
) -> str:
    """ "<article>Title · Scheduled · <time>…</time> – <time>…</time>, Affected: API</article>"."""
    labels, human = _labels(context.language), _formatter(context.language, context.zone)
    window = (
        f" · {time_element(scheduled_for, human)} – {time_element(scheduled_until, human)}"
        if scheduled_for
        else ""
    )
    names = _names(affected, context.language)
    affected_html = f'<p class="affected">{labels.affected} {html.escape(names)}</p>' if names else ""
    return (
        f'<article class="maintenance"><h3>{_link(context, slug, title, original_language)}</h3>'
        f'<p class="meta">{labels.statuses[status]}{window}</p>{affected_html}</article>'
    )


def _link(context: ListContext, slug: str, title_json: str, original_language: str) -> str:
    title = pick(json.loads(title_json), language=context.language, original=original_language)
    url = html.escape(context.incident_url.replace("-slug-", slug))
    return f'<a href="{url}"{lang_attribute(title)}>{html.escape(title.text)}</a>'


def _names(affected: tuple[str, ...], language: str) -> str:
    """Component names (their stored JSON text) in `language`, comma separated."""
    return ", ".join(component_name(name, language).text for name in affected)


@dataclass(frozen=True)
class Labels:
    """The escaped labels of a list in one language."""

    maintenance: str
    affected: str
    impacts: dict[str, str]
    statuses: dict[str, str]


@cache
def _labels(language: str) -> Labels:
    # Rows are kept across requests, so their labels cannot rely on the active language.
    with translation.override(language):
        return Labels(
            maintenance=html.escape(_("Maintenance")),
            affected=html.escape(_("Affected:")),
            impacts={impact.value: html.escape(str(impact.label)) for impact in Impact},
            statuses={value: html.escape(label) for value, label in status_labels(language).items()},
        )


@cache
def _formatter(language: str, zone: str) -> formatting.DateTimeFormatter:
    """One formatter per language and zone: it keeps the text of each day and offset it wrote."""
    return formatting.DateTimeFormatter(language, zone=ZoneInfo(zone))
