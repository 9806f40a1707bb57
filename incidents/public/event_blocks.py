"""Each event's block on the overview and the history page, drawn once per what it shows and
kept in the process: an update draws its own incident's block again, not every other event's
(docs/public-site.md, Render cost)."""

import threading
from collections import OrderedDict

from django.template.loader import get_template
from django.utils import timezone
from django.utils.safestring import SafeString

from incidents import formatting
from incidents.models import Incident, IncidentUpdate
from incidents.translation import current_language

KEPT_BLOCKS = 1024  # blocks kept per process, the least recently shown dropped first

_kept: OrderedDict[tuple, SafeString] = OrderedDict()
_lock = threading.Lock()


def event_block(template_name: str, event: Incident, *, heading: str = "") -> SafeString:
    """`template_name` drawn for `event` (as `event` and `incident`, with `heading`)."""
    key = (template_name, heading, current_language(), formatting.status_zone().key, shown(event))
    with _lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
            return found
    drawn = get_template(template_name).render({"event": event, "incident": event, "heading": heading})
    with _lock:
        _kept[key] = drawn
        while len(_kept) > KEPT_BLOCKS:
            _kept.popitem(last=False)
    return drawn


def shown(event: Incident) -> tuple:
    """Everything a block of `event` may show: its fields, its components, its newest update, and
    the minute while it is open (its duration so far)."""
    latest: list[IncidentUpdate] = getattr(event, "latest_updates", [])
    return (
        _fields(event),
        tuple((c.pk, c.slug, repr(c.name)) for c in event.components.all()),
        tuple(_fields(update) for update in latest),
        None if event.resolved_at else timezone.now().replace(second=0, microsecond=0),
    )


def _fields(row: Incident | IncidentUpdate) -> tuple:
    return tuple(repr(getattr(row, field.attname)) for field in row._meta.concrete_fields)


def forget() -> None:
    """Drops every kept block (tests that change what blocks are drawn from)."""
    with _lock:
        _kept.clear()
