"""RSS 2.0 and Atom feeds of incident and maintenance updates, per page and per component.

One entry per update, in the language of the URL (`/ru/history.atom`). Entry ids are tag
URIs (RFC 4151) built from the update's public id and language, so they stay the same from
one render to the next; links are absolute (SITE_URL) and texts go through the sanitizer.
"""

from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed, Rss201rev2Feed
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from incidents import selectors
from incidents.models import IncidentStatus, IncidentUpdate
from incidents.rendering import render_markdown
from incidents.translation import pick


def _language() -> str:
    return (get_language() or settings.LANGUAGE_CODE).split("-")[0]


class HistoryFeed(Feed):
    feed_type = Rss201rev2Feed

    def get_object(self, request, *args, **kwargs):
        return None

    def title(self, obj) -> str:
        return _("%(page)s: incidents and maintenance") % {"page": settings.STATUS_PAGE_NAME}

    def description(self, obj) -> str:
        return _("Every update of every incident and maintenance window on %(page)s.") % {
            "page": settings.STATUS_PAGE_NAME
        }

    def link(self, obj) -> str:
        return settings.SITE_URL + reverse("public:history")

    def feed_url(self, obj) -> str:
        name = "public:history-atom" if self.feed_type is Atom1Feed else "public:history-rss"
        return settings.SITE_URL + reverse(name)

    def items(self, obj) -> list[IncidentUpdate]:
        return selectors.feed_updates(limit=settings.PUBLIC_FEED_ENTRIES)

    def item_title(self, update: IncidentUpdate) -> str:
        incident = update.incident
        title = pick(incident.title, language=_language(), original=incident.original_language).text
        return f"{title}: {IncidentStatus(update.status).label}"

    def item_description(self, update: IncidentUpdate) -> str:
        return str(
            render_markdown(pick(update.body, language=_language(), original=update.original_language).text)
        )

    def item_link(self, update: IncidentUpdate) -> str:
        return f"{settings.SITE_URL}{reverse('public:incident', args=[update.incident.slug])}#update-{update.public_id}"

    def item_guid(self, update: IncidentUpdate) -> str:
        host = urlsplit(settings.SITE_URL).hostname or "localhost"
        return f"tag:{host},{update.created_at:%Y-%m-%d}:{_language()}/update/{update.public_id}"

    item_guid_is_permalink = False

    def item_pubdate(self, update: IncidentUpdate):
        return update.display_at

    def item_updateddate(self, update: IncidentUpdate):
        return max(update.updated_at, update.display_at)


class HistoryAtomFeed(HistoryFeed):
    feed_type = Atom1Feed
    subtitle = HistoryFeed.description


class ComponentFeed(HistoryFeed):
    def get_object(self, request, slug: str):
        return selectors.public_component(slug)

    def title(self, component) -> str:
        name = pick(component.name, language=_language(), original=component.original_language).text
        return _("%(page)s: %(component)s") % {"page": settings.STATUS_PAGE_NAME, "component": name}

    def description(self, component) -> str:
        name = pick(component.name, language=_language(), original=component.original_language).text
        return _("Every update of incidents and maintenance affecting %(component)s.") % {"component": name}

    def link(self, component) -> str:
        return settings.SITE_URL + reverse("public:component", args=[component.slug])

    def feed_url(self, component) -> str:
        name = "public:component-atom" if self.feed_type is Atom1Feed else "public:component-rss"
        return settings.SITE_URL + reverse(name, args=[component.slug])

    def items(self, component) -> list[IncidentUpdate]:
        return selectors.feed_updates(component=component, limit=settings.PUBLIC_FEED_ENTRIES)


class ComponentAtomFeed(ComponentFeed):
    feed_type = Atom1Feed
    subtitle = ComponentFeed.description
