"""What a public page tells search engines and link previews: title, description, canonical URL,
Open Graph type; from what the page shows, or for the site's other pages from the route's name."""

from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext as _

from incidents.models import ComponentStatus


@dataclass(frozen=True)
class PageMeta:
    title: str
    description: str
    url: str  # canonical, absolute; empty for error pages, which have none
    kind: str  # og:type


def _site_pages() -> dict[str, tuple[str, str]]:
    """Route name: (title, description), translated now."""
    site = {"site": settings.STATUS_PAGE_NAME}
    return {
        "public:overview": (
            _("Current status"),
            _("Current status of %(site)s: open incidents, maintenance and each component.") % site,
        ),
        "public:history": (
            _("History"),
            _("Past incidents and maintenance of %(site)s, month by month.") % site,
        ),
        "public:uptime": (_("Uptime"), _("Uptime of each %(site)s component, month by month.") % site),
        "public:maintenance": (_("Maintenance"), _("Scheduled and past maintenance of %(site)s.") % site),
        "subscribe:form": (
            _("Subscribe to updates"),
            _("Get %(site)s incident and maintenance updates by email, webhook or feed.") % site,
        ),
    }


def page_meta(
    *,
    route: str | None,
    path: str,
    incident=None,
    incident_title: str = "",
    component_name: str = "",
    component_status: str = "",
    page_status: str = "",
) -> PageMeta:
    """The meta of the page at `path`, answered by `route` (None on a 404); `page_status` is the
    overview's banner, which its link preview leads with."""
    site = settings.STATUS_PAGE_NAME
    url = settings.SITE_URL + path if route else ""
    if incident is not None and incident_title:
        status = incident.get_status_display()
        if incident.is_maintenance:
            text = _(
                "%(status)s. The window, the affected components and every update of this maintenance on %(site)s."
            )
        else:
            text = _("%(status)s. Every update of this incident and the affected components on %(site)s.")
        return PageMeta(incident_title, text % {"status": status, "site": site}, url, "article")
    if component_name:
        status = ComponentStatus(component_status).label if component_status else ""
        text = _("%(component)s: %(status)s. Live figures, uptime and past incidents on %(site)s.") % {
            "component": component_name,
            "status": status,
            "site": site,
        }
        return PageMeta(component_name, text, url, "website")
    pages = _site_pages()
    title, description = pages.get(route or "", (site, pages["public:overview"][1]))
    if route == "public:overview" and page_status:
        description = _(
            "%(status)s. Open incidents, maintenance and the live figures of each component of %(site)s."
        ) % {"status": page_status, "site": site}
    return PageMeta(f"{title} · {site}" if title != site else site, description, url, "website")
