"""RSS 2.0 and Atom 1.0 feeds of incident and maintenance updates, per page and per component."""

import datetime as dt
import html
import io
import re
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.encoding import iri_to_uri
from django.utils.feedgenerator import Atom1Feed, Rss201rev2Feed
from django.utils.translation import gettext as _

from incidents import selectors
from incidents.formatting import format_datetime
from incidents.models import Component, IncidentUpdate
from incidents.public.durations import duration_at_update
from incidents.rendering import stored_or_rendered
from incidents.translation import current_language, pick

NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # no XML 1.0 document may hold these


class SelfLinked:
    """A self link naming its media type, as the W3C Feed Validation Service recommends."""

    self_link_element = "link"

    def __init__(self, *args, feed_url: str, **kwargs):
        super().__init__(*args, feed_url=None, **kwargs)
        self.self_url = iri_to_uri(feed_url)

    def write(self, outfile, encoding: str) -> None:
        # Into a buffer first: the XML writer makes a write per tag and piece of text, and each
        # write to an HttpResponse is a chunk of its own.
        buffer = io.StringIO()
        super().write(buffer, encoding)
        outfile.write(buffer.getvalue())

    def add_root_elements(self, handler) -> None:
        super().add_root_elements(handler)
        media_type = self.content_type.split(";")[0]
        handler.addQuickElement(
            self.self_link_element, "", {"rel": "self", "type": media_type, "href": self.self_url}
        )


class AtomFeed(SelfLinked, Atom1Feed):
    url_suffix = "atom"
    text_is_html = False  # titles are type="text"

    def item_attributes(self, item) -> dict:
        # The language of the text the entry shows, which after a fallback is not the feed's.
        return {"xml:lang": item["content_language"]}


class RssFeed(SelfLinked, Rss201rev2Feed):
    url_suffix = "rss"
    text_is_html = True  # readers parse RSS titles and descriptions as HTML
    self_link_element = "atom:link"


class UpdatesFeed(Feed):
    """The newest updates of published incidents, of the whole page or of one component."""

    def __init__(self, feed_type: type[AtomFeed | RssFeed]):
        self.feed_type = feed_type

    @property
    def language(self) -> str:
        return current_language()

    def text(self, text: str) -> str:
        """Plain text as the format carries it; the writer then escapes it as XML."""
        text = NOT_XML.sub("", text)
        return html.escape(text) if self.feed_type.text_is_html else text

    def get_object(self, request, slug: str | None = None) -> Component | None:
        return get_object_or_404(Component, slug=slug) if slug else None

    def component_name(self, component: Component) -> str:
        return pick(component.name, language=self.language, original=component.original_language).text

    def title(self, component: Component | None) -> str:
        page = settings.STATUS_PAGE_NAME
        if component is None:
            return self.text(_("%(page)s: incidents and maintenance") % {"page": page})
        name = self.component_name(component)
        return self.text(_("%(page)s: %(component)s") % {"page": page, "component": name})

    def description(self, component: Component | None) -> str:
        if component is None:
            text = _("Every update of every incident and maintenance window on %(page)s.")
            return self.text(text % {"page": settings.STATUS_PAGE_NAME})
        text = _("Every update of incidents and maintenance affecting %(component)s.")
        return self.text(text % {"component": self.component_name(component)})

    subtitle = description

    def link(self, component: Component | None) -> str:
        if component is None:
            return settings.SITE_URL + reverse("public:history")
        return settings.SITE_URL + reverse("public:component", args=[component.slug])

    def feed_url(self, component: Component | None) -> str:
        suffix = self.feed_type.url_suffix
        if component is None:
            return settings.SITE_URL + reverse(f"public:history-{suffix}")
        return settings.SITE_URL + reverse(f"public:component-{suffix}", args=[component.slug])

    def author_name(self) -> str:
        return NOT_XML.sub("", settings.STATUS_PAGE_NAME)

    def items(self, component: Component | None) -> list[IncidentUpdate]:
        return selectors.feed_updates(component=component, limit=settings.PUBLIC_FEED_ENTRIES)

    def item_title(self, update: IncidentUpdate) -> str:
        incident = update.incident
        title = pick(incident.title, language=self.language, original=incident.original_language).text
        # One label rather than get_status_display(), which translates every status of the choices.
        return self.text(f"{title}: {update.status_label}")

    def shown_body(self, update: IncidentUpdate):
        return pick(update.body, language=self.language, original=update.original_language)

    def item_extra_kwargs(self, update: IncidentUpdate) -> dict:
        return {"content_language": self.shown_body(update).language}

    def item_description(self, update: IncidentUpdate) -> str:
        body = self.shown_body(update).text
        text = (
            self.time_line(update) + stored_or_rendered(body, update.body_html) + self.duration_line(update)
        )
        return NOT_XML.sub("", text)

    def duration_line(self, update: IncidentUpdate) -> str:
        text = duration_at_update(update.incident, self.language, at=update.display_at)
        if not text:
            return ""
        # The label the mails use, "Duration: 1 h" (a msgid inside an f-string was never extracted).
        label = _("Duration")
        return f"<p>{html.escape(label)}: {html.escape(text)}</p>"

    def time_line(self, update: IncidentUpdate) -> str:
        """When the update was shown, in its incident's zone, named."""
        zone = update.incident.time_zone
        shown = format_datetime(update.display_at, self.language, zone=zone, zone_name=True)
        return f"<p>{html.escape(shown)}</p>"

    def item_link(self, update: IncidentUpdate) -> str:
        url = reverse("public:incident", args=[update.incident.slug])
        return f"{settings.SITE_URL}{url}#update-{update.public_id}"

    def item_guid(self, update: IncidentUpdate) -> str:
        # A tag URI (RFC 4151), the same across renders and edits.
        host = urlsplit(settings.SITE_URL).hostname or "localhost"
        return f"tag:{host},{update.created_at:%Y-%m-%d}:{self.language}/update/{update.public_id}"

    item_guid_is_permalink = False

    item_author_name = author_name

    def item_pubdate(self, update: IncidentUpdate) -> dt.datetime:
        return update.display_at

    def item_updateddate(self, update: IncidentUpdate) -> dt.datetime:
        # The time the entry describes, so a record entered today of an update of 2018 is not
        # shown as new; an edit made after posting is news of its own.
        if update.updated_at > update.created_at:
            return max(update.updated_at, update.display_at)
        return update.display_at


atom = UpdatesFeed(AtomFeed)
rss = UpdatesFeed(RssFeed)
