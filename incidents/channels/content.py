"""What a notification about an update says, rendered once per (update, language): channels
only personalise it (addresses, signed links), so 20,000 subscribers cost four renderings."""

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString

from incidents.formatting import format_datetime
from incidents.models import ComponentStatus, ComponentStatusChange, Incident, IncidentUpdate
from incidents.public.durations import duration_at_update
from incidents.rendering import render_markdown
from incidents.translation import Shown, pick


@dataclass(frozen=True)
class ComponentLine:
    component_id: int
    name: str
    status: str
    status_label: str
    old_status: str | None
    held_by: str = ""  # on a resolving update, why the component did not go back to operational


@dataclass(frozen=True)
class UpdateContent:
    language: str
    page_name: str
    title: Shown
    body: Shown
    body_html: SafeString
    status: str
    status_label: str
    is_maintenance: bool
    shown_at: str
    duration: str  # as it stood at the update; empty for maintenance and at the start
    incident_url: str
    components: tuple[ComponentLine, ...]

    @property
    def is_fallback(self) -> bool:
        return self.title.is_fallback or self.body.is_fallback


def incident_url(incident: Incident, language: str) -> str:
    with translation.override(language):
        return settings.SITE_URL + reverse("public:incident", kwargs={"slug": incident.slug})


def render_content(update: IncidentUpdate, language: str) -> UpdateContent:
    incident = update.incident
    with translation.override(language):
        changes = {change.component_id: change for change in update.component_changes.all()}
        components = []
        for component in incident.components.all():
            change = changes.get(component.pk)
            status = change.new_status if change else component.status
            components.append(
                ComponentLine(
                    component_id=component.pk,
                    name=pick(component.name, language=language).text or component.slug,
                    status=status,
                    status_label=str(ComponentStatus(status).label),
                    old_status=change.old_status if change else None,
                    held_by=pick(change.held_by, language=language).text if change else "",
                )
            )
        body = pick(update.body, language=language, original=update.original_language)
        return UpdateContent(
            language=language,
            page_name=settings.STATUS_PAGE_NAME,
            title=pick(incident.title, language=language, original=incident.original_language),
            body=body,
            body_html=render_markdown(body.text),
            status=update.status,
            status_label=update.status_label,
            is_maintenance=incident.is_maintenance,
            shown_at=format_datetime(update.display_at, language, zone=incident.time_zone, zone_name=True),
            duration=duration_at_update(incident, language, at=update.display_at),
            incident_url=incident_url(incident, language),
            components=tuple(components),
        )


class ContentCache:
    """Renderings by (update, its version, incident version, language), bounded per process."""

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._items: OrderedDict[tuple, Any] = OrderedDict()

    def get(self, key: tuple, build: Callable[[], Any]) -> Any:
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        value = self._items[key] = build()
        if len(self._items) > self.size:
            self._items.popitem(last=False)
        return value


def content_key(update: IncidentUpdate, language: str, kind: str) -> tuple:
    # Public ids, not primary keys: a deleted row's key can come back (SQLite) and hit a stale entry.
    return (
        kind,
        update.public_id,
        update.version,
        update.incident.public_id,
        update.incident.version,
        language,
    )


def status_change_key(change: ComponentStatusChange, language: str) -> tuple:
    # A status change never changes once written, so its id and the language are enough.
    return ("component_update", change.public_id, language)
