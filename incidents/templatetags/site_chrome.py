"""Template tags of the site's frame (templates/base.html): the theme set before first paint,
the icon, meta and Open Graph tags, and the header's navigation. None of them reads the
database, so the 500 page can use them."""

from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe

from incidents import formatting
from incidents.metrics.indicator import page_indicator
from incidents.public.page_meta import PageMeta, page_meta
from incidents.security.inline_scripts import THEME_BOOT
from incidents.translation import current_language, language_codes, pick

register = template.Library()


def _route(context) -> str | None:
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    return match.view_name if match else None


@register.simple_tag
def theme_boot() -> str:
    """The inline script that applies a kept theme before first paint (allowed by its hash)."""
    return mark_safe(f"<script>{THEME_BOOT}</script>")


@register.simple_tag(takes_context=True)
def favicon_url(context) -> str:
    """The icon in the colour of the page's indicator or component; elsewhere /favicon.svg decides."""
    url = reverse("favicon")
    summary = context.get("summary")
    if summary is not None and getattr(summary, "indicator", None) is not None:
        return f"{url}?status={summary.indicator.value}"
    component = context.get("component")
    if component is not None and getattr(component, "status", None):
        return f"{url}?status={page_indicator([component.status]).value}"
    return url


@register.simple_tag(takes_context=True)
def site_meta(context) -> dict:
    """Title, description, canonical URL, og:type and og:locale(s) of the page being rendered."""
    request = context.get("request")
    language = current_language()
    incident = context.get("incident")
    title = ""
    if incident is not None and hasattr(incident, "title"):
        title = str(pick(incident.title, language=language, original=incident.original_language))
    component = context.get("component")
    route = _route(context)
    # The overview's banner, which its link preview leads with.
    summary = context.get("summary") if route == "public:overview" else None
    meta: PageMeta = page_meta(
        route=route,
        path=request.path if request else "/",
        incident=incident,
        incident_title=title,
        component_name=str(context.get("name") or "") if component is not None else "",
        component_status=getattr(component, "status", "") if component is not None else "",
        page_status=str(summary.indicator.label) if summary is not None else "",
    )
    return {
        "meta": meta,
        "locale": formatting.locale_identifier(language),
        "alternate_locales": [formatting.locale_identifier(c) for c in language_codes() if c != language],
    }


@register.simple_tag(takes_context=True)
def aria_current(context, name: str) -> str:
    """aria-current="page" on the header link to the page being shown."""
    return mark_safe(' aria-current="page"') if _route(context) == name else ""
