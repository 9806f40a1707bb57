"""The overview's components section (groups, rows, live figures and day bars), kept under what
it shows: a content change that leaves the components alone (an incident update, the common
one) draws the rest of the overview and takes this part, most of its cost, as it was
(docs/public-site.md measures it)."""

import hashlib
from collections.abc import Callable, Sequence

from django.conf import settings
from django.utils import timezone
from django.utils.safestring import SafeString, mark_safe

from incidents import formatting, selectors
from incidents.metrics.uptime import day_starts
from incidents.models import Component
from incidents.public import fragment_cache, versions
from incidents.selectors.section_stamps import components_section_stamp


def components_section(
    groups: Sequence[selectors.GroupView], *, language: str, days: int, draw: Callable[[], str]
) -> SafeString:
    """The section as `draw` renders it, or as kept while nothing it shows has changed."""
    key = section_key(groups, language=language, days=days)
    found = fragment_cache.kept_many([key]).get(key) if key else None
    if found is None:
        found = draw()
        if key:
            # Kept for the refresh interval at most: live figures, their ages and today's bar are
            # never older than the interval readers are promised (docs/resilience.md, Freshness).
            fragment_cache.keep_many({key: str(found)}, seconds=settings.PUBLIC_METRICS_REFRESH_SECONDS)
    return mark_safe(found)  # the section's template escaped what it drew


def section_key(groups: Sequence[selectors.GroupView], *, language: str, days: int) -> str | None:
    """A digest of everything the section shows, or None when nothing may be kept: the live
    version for samples and live statuses, the components and groups as read (their
    `updated_at` moves on every edit and status change), the stamp of metrics, probes, status
    periods and the incidents the bars list, and the hour (today's date and the sparklines'
    hour labels)."""
    if settings.PUBLIC_METRICS_REFRESH_SECONDS <= 0:
        return None
    live = versions.live_version_or_none()
    if live is None:
        return None
    now = timezone.now()
    zone = formatting.status_zone()
    since = day_starts(days=days, now=now, zone=zone)[0]
    components = [c for view in groups for c in view.components]
    shown = (
        language,
        live,
        now.astimezone(zone).strftime("%Y-%m-%dT%H"),
        days,
        settings.PUBLIC_OVERVIEW_DETAILED_COMPONENTS,
        [_group_fields(view) for view in groups],
        [_component_fields(c) for c in components],
        components_section_stamp(since=since),
    )
    digest = hashlib.sha256(repr(shown).encode()).hexdigest()[:32]
    return f"public:components-section:{language}:{digest}"


def _group_fields(view: selectors.GroupView) -> tuple:
    group = view.group
    return (None,) if group is None else (group.pk, group.slug, group.name, group.position, group.updated_at)


def _component_fields(c: Component) -> tuple:
    return (c.pk, c.slug, c.name, c.group_id, c.status, c.showcase, c.start_date, c.updated_at)
