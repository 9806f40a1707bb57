"""Template tags of the public site: status badges, times, fallback notes, language links."""

import datetime as dt
from functools import lru_cache
from zoneinfo import ZoneInfo

from django import template
from django.conf import settings
from django.urls import reverse, translate_url
from django.utils.html import conditional_escape, format_html
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import get_language_from_path, override
from django.utils.translation import gettext as _

from incidents import formatting
from incidents.models import ComponentStatus
from incidents.public import event_blocks
from incidents.public.durations import duration_text
from incidents.rendering import stored_or_rendered
from incidents.translation import Shown, current_language, language_codes, pick

register = template.Library()

# A shape per status, so status is never told by colour alone (the label is always beside it).
ICONS = {
    ComponentStatus.OPERATIONAL: "✓",
    ComponentStatus.DEGRADED_PERFORMANCE: "▲",
    ComponentStatus.PARTIAL_OUTAGE: "◆",
    ComponentStatus.MAJOR_OUTAGE: "✕",
    ComponentStatus.UNDER_MAINTENANCE: "⚙",
}


@register.simple_tag
def status_badge(status) -> str:
    status = ComponentStatus(status)
    return format_html(
        '<span class="badge status-{}"><span class="icon" data-icon="{}" aria-hidden="true"></span> {}</span>',
        status.value,
        ICONS[status],
        status.label,
    )


@register.simple_tag
def time_tag(value: dt.datetime | None, style: str = "datetime", zone: ZoneInfo | None = None) -> str:
    """A time for people in `zone`, with UTC for machines; `style` "date" or "long" (written out)."""
    if value is None:
        return ""
    zone = zone or formatting.status_zone()
    machine = iso_utc(value)
    local = formatting.in_zone(value, zone)
    if style == "date" and local is not None:
        human = formatting.format_date(local.date(), current_language())
    elif style == "long":
        human = formatting.format_long_datetime(value, current_language(), zone=zone)
    else:
        human = formatting.format_datetime(value, current_language(), zone=zone)
    if style == "date":
        return format_html('<time datetime="{}">{}</time>', machine, human)
    # data-local: static/js/local-time.js can show it in the reader's own zone.
    return format_html('<time datetime="{}" data-local="{}">{}</time>', machine, style, human)


@register.simple_tag
def time_range(start: dt.datetime, end: dt.datetime, zone: ZoneInfo | None = None) -> str:
    """A window ("Nov 19, 2026, 08:25 – 14:10 GMT+01:00"), each end a <time>; the start alone when
    there is no end (a Statuspage import may bring one)."""
    if end is None:
        return time_tag(start, zone=zone)
    first, last, joined = formatting.format_datetime_range(start, end, current_language(), zone=zone)
    ends = [
        format_html('<time datetime="{}" data-local="datetime">{}</time>', iso_utc(at), text)
        for at, text in ((start, first), (end, last))
    ]
    return mark_safe(conditional_escape(joined).replace("{0}", ends[0]).replace("{1}", ends[1]))


@register.simple_tag
def zone_note(incident) -> str:
    """ "Times in Moscow Standard Time (Europe/Moscow).": the zone an incident's times are in."""
    name = formatting.format_time_zone(incident.time_zone, current_language(), at=incident.started_at)
    text = _("Times in %(zone)s (%(name)s).") % {"zone": name, "name": incident.time_zone_name}
    # data-zone-note: local-time.js hides it while the times show in the reader's own zone.
    return format_html('<p class="zone" data-zone-note>{}</p>', text)


@register.simple_tag
def fallback_note(shown: Shown, original: str | None = None, noun: str = "update") -> str:
    """ "This update is shown in Russian, its original language." when a fallback is shown."""
    if not isinstance(shown, Shown) or not shown.is_fallback:
        return ""
    name = formatting.language_name(shown.language, current_language())
    if noun == "title":
        text = (
            _("This title is shown in %(language)s, its original language.")
            if shown.language == original
            else _("This title is shown in %(language)s.")
        )
    else:
        text = (
            _("This update is shown in %(language)s, its original language.")
            if shown.language == original
            else _("This update is shown in %(language)s.")
        )
    return format_html('<p class="fallback">{}</p>', text % {"language": name})


@register.simple_tag
def updates_fallback_note(updates) -> str:
    """One note above a timeline whose updates are (some) shown in another language, not one each."""
    language = current_language()
    bodies = [pick(update.body, language=language, original=update.original_language) for update in updates]
    return _section_note(bodies, noun="update")


@register.simple_tag
def postmortem_fallback_note(postmortem) -> str:
    """One note for a postmortem whose sections are shown in another language than the page's."""
    return _section_note([text for _key, _label, text in postmortem.sections], noun="postmortem")


def _section_note(shown: list[Shown], *, noun: str) -> str:
    shown = [text for text in shown if isinstance(text, Shown) and text.text]
    fallbacks = [text for text in shown if text.is_fallback]
    if not fallbacks:
        return ""
    names = formatting.language_names(
        list(dict.fromkeys(text.language for text in fallbacks)), current_language()
    )
    if noun == "postmortem":
        text = _("This postmortem is shown in %(language)s, the language it was written in.")
    elif len(fallbacks) == len(shown):
        text = _("These updates are shown in %(language)s, the language they were written in.")
    else:
        text = _("Some updates are shown in %(language)s, the language they were written in.")
    return format_html('<p class="fallback">{}</p>', text % {"language": names})


@register.simple_tag
def lang_attr(shown: Shown) -> str:
    """A lang attribute for content shown in another language than the page's."""
    if isinstance(shown, Shown) and shown.is_fallback:
        return format_html(' lang="{}"', shown.language)
    return ""


@register.simple_tag(takes_context=True)
def language_links(context) -> list[dict]:
    """Each language with the URL of this page in it (absolute) and its switcher URL."""
    # Kept on the request: the head and the header both ask, each with a render_context of its own.
    request = context.get("request")
    if request is None:
        return _language_links("/")
    if not hasattr(request, "language_links"):
        request.language_links = _language_links(request.get_full_path())
    return request.language_links


def _language_links(path: str) -> list[dict]:
    links = _links_in_every_language(path, current_language(), settings.SITE_URL, tuple(language_codes()))
    return [dict(link) for link in links]


# The same few paths are asked for on every render, and resolving and reversing a path once per
# language was a tenth of an overview's render; bounded, as query strings are the visitor's.
@lru_cache(maxsize=1024)
def _links_in_every_language(
    path: str, current: str, site_url: str, codes: tuple[str, ...]
) -> tuple[dict, ...]:
    links = []
    # Resolve the path in the language its prefix names (none: the default language), not in
    # the reader's language, which may differ on unprefixed URLs (see incidents.request_context).
    path_language = get_language_from_path(path.split("?")[0]) or settings.LANGUAGE_CODE
    for code in codes:
        with override(path_language):
            url = translate_url(path, code)
        links.append(
            {
                "code": code,
                "name": formatting.language_name(code, code),
                "url": site_url + url,
                "switch": f"{reverse('public:language', args=[code])}?{urlencode({'next': url})}",
                "current": code == current,
            }
        )
    return tuple(links)


@register.simple_tag
def site_name() -> str:
    return settings.STATUS_PAGE_NAME


@register.simple_tag
def page_zone_note() -> str:
    """The status page's own zone, worded so as not to contradict an incident's own zone."""
    zone = formatting.status_zone()
    name = formatting.format_time_zone(zone, current_language(), at=dt.datetime.now(dt.UTC))
    text = _(
        "This page's time zone is %(zone)s (%(name)s). An incident reported in another zone "
        "shows its times in that zone, named beside each time."
    ) % {"zone": name, "name": zone.key}
    return format_html('<p class="page-zone" data-zone-note>{}</p>', text)


@register.filter
def iso_utc(value: dt.datetime | None) -> str:
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ") if value else ""


@register.simple_tag
def due_text(item, language: str = "") -> str:
    """An action item's due date by its precision ("4th quarter 2027"), or nothing."""
    if not item.due_date:
        return ""
    return formatting.format_due(item.due_date, item.due_precision, language or current_language())


@register.simple_tag
def key_figure_value(figure, language: str = "") -> str:
    """A key figure's value with its unit ("23 мин") in `language` (the page's by default)."""
    return formatting.format_key_figure(figure.value, figure.unit, language or current_language())


@register.filter
def body_html(body: Shown, update) -> str:
    """The HTML of an update's body as shown, as stored when it was written."""
    return stored_or_rendered(str(body), update.body_html)


@register.simple_tag(name="event_block")
def event_block_tag(template_name: str, event, heading: str = "") -> str:
    """An event's block (`template_name`), kept per process under what it shows."""
    return event_blocks.event_block(template_name, event, heading=heading)


@register.simple_tag
def incident_duration(incident) -> str:
    """How long the incident lasted, or "… so far (ongoing)" while it is open."""
    return duration_text(incident, current_language())
