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
import html as html_text
import json
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
from incidents.kept import kept
from incidents.models import Component
from incidents.presentation import status_labels
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


def rss_text(text: str) -> str:
    """Plain text for an RSS title or description: readers parse both as HTML, so the text is
    escaped as HTML first, then as XML (Atom says type="text" and needs only the second)."""
    return escape(html_text.escape(text))


def _language() -> str:
    return (get_language() or settings.LANGUAGE_CODE).split("-")[0]


@dataclass(frozen=True)
class FeedContext:
    """What every entry of one feed shares: its format and language, the absolute incident
    link with "-slug-" where the slug goes, and the host its tag URIs name."""

    is_atom: bool
    language: str
    incident_url: str
    host: str

    @classmethod
    def current(cls, language: str, *, is_atom: bool) -> "FeedContext":
        return cls(
            is_atom,
            language,
            settings.SITE_URL + reverse("public:incident", args=["-slug-"]),
            urlsplit(settings.SITE_URL).hostname or "localhost",
        )


@dataclass(frozen=True)
class Entry:
    """One update as an RSS <item> or an Atom <entry>."""

    updated: dt.datetime
    xml: str


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


def entries(rows: list[dict], language: str, *, is_atom: bool) -> list[Entry]:
    """Feed entries for selectors.feed_updates rows, in `language`."""
    context = FeedContext.current(language, is_atom=is_atom)
    return [
        entry(
            context,
            public_id=row["public_id"],
            status=row["status"],
            body=row["body_json"],
            body_html=row["body_html_json"],
            original_language=row["original_language"],
            display_at=row["display_at"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            slug=row["incident__slug"],
            title=row["incident_title_json"],
            title_language=row["incident__original_language"],
        )
        for row in rows
    ]


# A feed holds 50 entries and writing one (picking its texts, escaping its HTML) costs more
# than reading it. Entries are kept per process by everything they are written from (texts as
# their stored JSON text), so a changed update makes a new entry and a kept one is never stale.
ENTRIES_KEPT = 8192


@kept(ENTRIES_KEPT)
def entry(
    context: FeedContext,
    *,
    public_id: str,
    status: str,
    body: str,
    body_html: str,
    original_language: str,
    display_at: dt.datetime,
    created_at: dt.datetime,
    updated_at: dt.datetime,
    slug: str,
    title: str,
    title_language: str,
) -> Entry:
    language = context.language
    title_text = pick(json.loads(title), language=language, original=title_language).text
    title_text = f"{title_text}: {status_labels(language)[status]}"
    body_text = pick(json.loads(body), language=language, original=original_language).text
    html = escape(stored_or_rendered(body_text, json.loads(body_html)))
    link = f"{context.incident_url.replace('-slug-', slug)}#update-{public_id}"
    guid = escape(f"tag:{context.host},{created_at:%Y-%m-%d}:{language}/update/{public_id}")
    updated = max(updated_at, display_at)
    if context.is_atom:
        return Entry(
            updated,
            f'<entry><title>{escape(title_text)}</title><link href={quoteattr(link)} rel="alternate"/>'
            f"<published>{display_at.isoformat()}</published><updated>{updated.isoformat()}</updated>"
            f'<id>{guid}</id><summary type="html">{html}</summary></entry>',
        )
    return Entry(
        updated,
        f"<item><title>{rss_text(title_text)}</title><link>{escape(link)}</link><description>{html}</description>"
        f'<pubDate>{rfc822(display_at)}</pubDate><guid isPermaLink="false">{guid}</guid></item>',
    )


def rss(channel: Channel) -> str:
    items = "".join(entry.xml for entry in channel.entries)
    built = f"<lastBuildDate>{rfc822(channel.updated)}</lastBuildDate>" if channel.updated else ""
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>'
        f"<title>{rss_text(channel.title)}</title><link>{escape(channel.link)}</link>"
        f"<description>{rss_text(channel.description)}</description>"
        f'<atom:link href={quoteattr(channel.feed_url)} rel="self"/>'
        f"<language>{escape(channel.language)}</language>{built}{items}</channel></rss>"
    )


def atom(channel: Channel) -> str:
    items = "".join(entry.xml for entry in channel.entries)
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
        entries=entries(
            selectors.feed_updates(limit=settings.PUBLIC_FEED_ENTRIES), language, is_atom=is_atom
        ),
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
        entries=entries(rows, language, is_atom=is_atom),
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
