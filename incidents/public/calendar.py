"""The iCalendar feed of scheduled maintenance (RFC 5545), of the page or of one component.

The UID is the window's public id, so a calendar app updates its event instead of adding a copy;
DTSTAMP is when it last changed, so the same data gives the same bytes and the ETag holds.
"""

import datetime as dt
from urllib.parse import urlsplit

import icalendar
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from incidents.models import Component, Incident, IncidentStatus
from incidents.selectors.calendar import calendar_maintenance
from incidents.translation import pick

# A window planned without an end is shown this long.
DEFAULT_LENGTH = dt.timedelta(hours=1)
PRODUCT_ID = "-//Status page//Maintenance calendar//EN"


def maintenance_calendar(*, language: str, component: Component | None = None) -> bytes:
    """The calendar document, with its texts in `language` (falling back as pages do)."""
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    with translation.override(language):
        if component is None:
            name = _("%(site)s: scheduled maintenance") % {"site": settings.STATUS_PAGE_NAME}
        else:
            component_name = pick(
                component.name, language=language, original=component.original_language
            ).text
            name = _("%(site)s: scheduled maintenance of %(component)s") % {
                "site": settings.STATUS_PAGE_NAME,
                "component": component_name,
            }
        calendar.add("x-wr-calname", name)
        for window in calendar_maintenance(component=component):
            calendar.add_component(_event(window, language))
    return calendar.to_ical()


def _event(window: Incident, language: str) -> icalendar.Event:
    start = window.scheduled_for or window.started_at
    end = window.scheduled_until or window.resolved_at or start + DEFAULT_LENGTH
    end = max(end, start + dt.timedelta(minutes=1))
    changed = max(window.updated_at, window.published_at or window.updated_at)
    url = settings.SITE_URL + reverse("public:incident", args=[window.slug])
    event = icalendar.Event()
    event.add("uid", f"{window.public_id}@{_host()}")
    event.add("dtstamp", changed.astimezone(dt.UTC))
    event.add("last-modified", changed.astimezone(dt.UTC))
    event.add("created", (window.published_at or window.created_at).astimezone(dt.UTC))
    event.add("sequence", max(window.version - 1, 0))
    event.add("dtstart", start.astimezone(dt.UTC))
    event.add("dtend", end.astimezone(dt.UTC))
    event.add("summary", pick(window.title, language=language, original=window.original_language).text)
    event.add("description", _description(window, language, url))
    event.add("url", url)
    event.add("status", "CONFIRMED")
    event.add("transp", "TRANSPARENT")  # maintenance does not make the reader busy
    if IncidentStatus(window.status).is_closed:
        event.add("categories", [str(_("Completed"))])
    return event


def _description(window: Incident, language: str, url: str) -> str:
    announcement = next((u for u in window.updates.all() if u.body), None)
    text = (
        pick(announcement.body, language=language, original=announcement.original_language).text
        if announcement
        else ""
    )
    return "\n\n".join(p for p in (text, url) if p)


def _host() -> str:
    return urlsplit(settings.SITE_URL).hostname or "localhost"
