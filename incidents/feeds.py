"""RSS 2.0 and Atom feeds of incident and maintenance updates, per page and per component.

One entry per update, in the language of the URL (`/ru/history.atom`). Entry ids are tag
URIs (RFC 4151) built from the update's public id and language, so they stay the same from
one render to the next; links are absolute (SITE_URL) and texts go through the sanitizer
(the HTML each update stored when it was written: IncidentUpdate.body_html).

The documents have the shape django.utils.feedgenerator writes (RSS 2.0 with an atom:link
to itself, Atom 1.0) but are written here as strings: a feed holds 50 entries, and the
syndication framework spends more on each entry than the rest of the request costs.
"""

import datetime as dt
import re
from dataclasses import dataclass
from email.utils import format_datetime as rfc822
from urllib.parse import urlsplit
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import http_date
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from incidents import selectors
from incidents.models import Component, IncidentStatus
from incidents.rendering import stored_or_rendered
from incidents.translation import pick

RSS = "application/rss+xml; charset=utf-8"
ATOM = "application/atom+xml; charset=utf-8"
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # no XML 1.0 document may hold these


def escape(text: str) -> str:
    """Text for an XML element, without the characters XML 1.0 cannot carry at all."""
    if NOT_XML.search(text):
        text = NOT_XML.sub("", text)
    return xml_escape(text)


def _language() -> str:
    return (get_language() or settings.LANGUAGE_CODE).split("-")[0]


@dataclass
class Entry:
    title: str
    link: str
    guid: str
    html: str
    published: dt.datetime
    updated: dt.datetime


@dataclass
class Channel:
    title: str
    description: str
    link: str
    feed_url: str
    language: str
    entries: list[Entry]

    @property
    def updated(self) -> dt.datetime | None:
        return max((entry.updated for entry in self.entries), default=None)


def entries(rows: list[dict], language: str) -> list[Entry]:
    """Feed entries for selectors.feed_updates rows, in `language`."""
    link = settings.SITE_URL + reverse("public:incident", args=["-slug-"])
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    statuses = {status.value: str(status.label) for status in IncidentStatus}
    found = []
    for row in rows:
        title = pick(row["incident__title"], language=language, original=row["incident__original_language"])
        body = pick(row["body"], language=language, original=row["original_language"])
        public_id = row["public_id"]
        found.append(
            Entry(
                title=f"{title.text}: {statuses[row['status']]}",
                link=f"{link.replace('-slug-', row['incident__slug'])}#update-{public_id}",
                guid=f"tag:{host},{row['created_at']:%Y-%m-%d}:{language}/update/{public_id}",
                html=stored_or_rendered(body.text, row["body_html"]),
                published=row["display_at"],
                updated=max(row["updated_at"], row["display_at"]),
            )
        )
    return found


def rss(channel: Channel) -> str:
    items = "".join(
        f"<item><title>{escape(e.title)}</title><link>{escape(e.link)}</link>"
        f"<description>{escape(e.html)}</description><pubDate>{rfc822(e.published)}</pubDate>"
        f'<guid isPermaLink="false">{escape(e.guid)}</guid></item>'
        for e in channel.entries
    )
    built = f"<lastBuildDate>{rfc822(channel.updated)}</lastBuildDate>" if channel.updated else ""
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>'
        f"<title>{escape(channel.title)}</title><link>{escape(channel.link)}</link>"
        f"<description>{escape(channel.description)}</description>"
        f'<atom:link href={quoteattr(channel.feed_url)} rel="self"/>'
        f"<language>{escape(channel.language)}</language>{built}{items}</channel></rss>"
    )


def atom(channel: Channel) -> str:
    items = "".join(
        f'<entry><title>{escape(e.title)}</title><link href={quoteattr(e.link)} rel="alternate"/>'
        f"<published>{e.published.isoformat()}</published><updated>{e.updated.isoformat()}</updated>"
        f'<id>{escape(e.guid)}</id><summary type="html">{escape(e.html)}</summary></entry>'
        for e in channel.entries
    )
    updated = (channel.updated or dt.datetime.now(dt.UTC)).isoformat()
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<feed xml:lang={quoteattr(channel.language)} xmlns="http://www.w3.org/2005/Atom">'
        f'<title>{escape(channel.title)}</title><link href={quoteattr(channel.link)} rel="alternate"/>'
        f'<link href={quoteattr(channel.feed_url)} rel="self"/><id>{escape(channel.link)}</id>'
        f"<updated>{updated}</updated><subtitle>{escape(channel.description)}</subtitle>{items}</feed>"
    )


def _response(channel: Channel, *, is_atom: bool) -> HttpResponse:
    response = HttpResponse(atom(channel) if is_atom else rss(channel), content_type=ATOM if is_atom else RSS)
    if channel.updated:
        response["Last-Modified"] = http_date(channel.updated.timestamp())
    return response


def _history(*, is_atom: bool) -> HttpResponse:
    language = _language()
    page = settings.STATUS_PAGE_NAME
    channel = Channel(
        title=_("%(page)s: incidents and maintenance") % {"page": page},
        description=_("Every update of every incident and maintenance window on %(page)s.") % {"page": page},
        link=settings.SITE_URL + reverse("public:history"),
        feed_url=settings.SITE_URL + reverse("public:history-atom" if is_atom else "public:history-rss"),
        language=language,
        entries=entries(selectors.feed_updates(limit=settings.PUBLIC_FEED_ENTRIES), language),
    )
    return _response(channel, is_atom=is_atom)


def _component(slug: str, *, is_atom: bool) -> HttpResponse:
    language = _language()
    component = get_object_or_404(Component, slug=slug)
    name = pick(component.name, language=language, original=component.original_language).text
    rows = selectors.feed_updates(component=component, limit=settings.PUBLIC_FEED_ENTRIES)
    channel = Channel(
        title=_("%(page)s: %(component)s") % {"page": settings.STATUS_PAGE_NAME, "component": name},
        description=_("Every update of incidents and maintenance affecting %(component)s.")
        % {"component": name},
        link=settings.SITE_URL + reverse("public:component", args=[slug]),
        feed_url=settings.SITE_URL
        + reverse("public:component-atom" if is_atom else "public:component-rss", args=[slug]),
        language=language,
        entries=entries(rows, language),
    )
    return _response(channel, is_atom=is_atom)


def history_rss(request) -> HttpResponse:
    return _history(is_atom=False)


def history_atom(request) -> HttpResponse:
    return _history(is_atom=True)


def component_rss(request, slug: str) -> HttpResponse:
    return _component(slug, is_atom=False)


def component_atom(request, slug: str) -> HttpResponse:
    return _component(slug, is_atom=True)
