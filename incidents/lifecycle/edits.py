"""Correcting what was written: an incident's fields, window and links, an update's text, and
making a draft public."""

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import Impact, Incident, IncidentStatus, IncidentUpdate
from incidents.public.versions import content_changed
from incidents.rendering import rendered_texts
from incidents.roles import can_administer
from incidents.services.notifications import enqueue_notifications
from incidents.translation import validate_language, validate_translations
from incidents.validation.concurrency import ConcurrentEdit
from incidents.validation.instants import check_fields
from incidents.validation.texts import check_title, check_titles

from .audit import audit
from .commands import EditIncident, EditUpdate
from .records import write_records_impact
from .updates import locked_incident

# A published incident's history is read by its subscribers and counted in the uptime bars: a
# move of its start or end by more than this (a correction of a clock or a typed hour) rewrites
# what the page has shown, so it takes an admin, or a reason the audit trail keeps.
FREE_MOVE = dt.timedelta(days=1)
MOVE_REASON_MAX = 500


@transaction.atomic
def edit_incident(incident: Incident, command: EditIncident, *, actor: User | None) -> Incident:
    """Changes an incident's title, impact, display time zone, start or resolution time and its
    related incidents, refusing if someone saved it meanwhile. Moving a published incident's
    start or end by more than a day takes an admin or a `reason`, kept in the audit trail."""
    locked = locked_incident(incident, expected_version=command.expected_version)
    window_edited = command.started_at is not None or command.resolved_at is not None
    before = edited_fields(locked, with_window=window_edited)
    set_window(locked, command, actor=actor)
    if command.display_time_zone is not None:
        locked.display_time_zone = command.display_time_zone
    if command.title is not None:
        validate_translations(dict(command.title))
        check_title_field(dict(command.title))
        locked.title = dict(command.title)
    if command.impact is not None:
        locked.impact = Impact(command.impact)
    locked.version += 1
    locked.updated_at = timezone.now()
    locked.full_clean()
    locked.save()
    content_changed()
    if locked.backfilled and window_edited:
        write_records_impact([locked])
    reason = command.reason.strip()
    after = edited_fields(locked, with_window=window_edited) | ({"reason": reason} if reason else {})
    audit(locked, action="incident.edited", actor=actor, before=before, after=after)
    if command.related is not None:
        relate_incidents(locked, related=command.related, actor=actor)
    return locked


def edited_fields(incident: Incident, *, with_window: bool) -> dict[str, Any]:
    """What an edit may change, for the audit; the window only when it was edited."""
    fields = {
        "title": incident.title,
        "impact": incident.impact,
        "display_time_zone": incident.display_time_zone,
    }
    if with_window:
        fields["started_at"] = incident.started_at.isoformat()
        fields["resolved_at"] = incident.resolved_at.isoformat() if incident.resolved_at else None
    return fields


def set_window(incident: Incident, command: EditIncident, *, actor: User | None) -> None:
    """Moves the start or the resolution time, within the bounds of every instant; a resolution
    time needs a resolved incident and comes after the start, and a far move of a published
    incident an admin or a reason."""
    started_at, resolved_at = command.started_at, command.resolved_at
    if started_at is None and resolved_at is None:
        return
    check_fields(incident, {"started_at": started_at, "resolved_at": resolved_at})
    if incident.published_at and not can_administer(actor) and not command.reason.strip():
        if _moves_far(incident.started_at, started_at) or _moves_far(incident.resolved_at, resolved_at):
            raise ValidationError(
                {"reason": _("Moving a published incident's start or end by more than a day needs a reason.")}
            )
    if resolved_at is not None and not IncidentStatus(incident.status).is_closed:
        raise ValidationError({"resolved_at": _("It is still open: resolve it to give a resolution time.")})
    start = started_at or incident.started_at
    end = resolved_at or incident.resolved_at
    if end is not None and end < start:
        field = "resolved_at" if resolved_at is not None else "started_at"
        raise ValidationError({field: _("The resolution cannot come before the start.")})
    incident.started_at = start
    incident.resolved_at = end


def _moves_far(stored: dt.datetime | None, new: dt.datetime | None) -> bool:
    return stored is not None and new is not None and abs(new - stored) > FREE_MOVE


def check_title_field(title: str | dict[str, str]) -> None:
    """check_title (or check_titles for translations), its errors on the `title` field."""
    try:
        check_title(title) if isinstance(title, str) else check_titles(title)
    except ValidationError as error:
        raise ValidationError({"title": error.messages}) from None


@transaction.atomic
def relate_incidents(incident: Incident, *, related: Iterable[Incident], actor: User | None) -> Incident:
    """Makes `related` the incidents linked to this one (each then links back), audited."""
    related = list(dict.fromkeys(related))
    if any(other.pk == incident.pk for other in related):
        raise ValidationError({"related": _("An incident cannot be related to itself.")})
    before = sorted(incident.related.values_list("slug", flat=True))
    incident.related.set(related)
    after = sorted(other.slug for other in related)
    if before != after:
        content_changed()
        audit(
            incident,
            action="incident.related",
            actor=actor,
            before={"related": before},
            after={"related": after},
        )
    return incident


@transaction.atomic
def publish_incident(incident: Incident, *, actor: User | None) -> Incident:
    """Makes a draft incident public; its subscribers hear of its newest update then."""
    locked = locked_incident(incident, expected_version=None)
    if locked.published_at is not None:
        return locked
    locked.published_at = timezone.now()
    locked.version += 1
    locked.save(update_fields=["published_at", "version"])
    content_changed()
    audit(
        locked,
        action="incident.published",
        actor=actor,
        before={"published": False},
        after={"published": True},
    )
    newest = locked.updates.status_changes().timeline().first()
    if newest is not None:
        enqueue_notifications(newest)
    return locked


@transaction.atomic
def edit_update(update: IncidentUpdate, command: EditUpdate, *, actor: User | None) -> IncidentUpdate:
    """Replaces the text of one language of an update; ConcurrentEdit if it changed meanwhile."""
    validate_language(command.language)
    locked = IncidentUpdate.objects.select_for_update().get(pk=update.pk)
    if locked.version != command.expected_version:
        raise ConcurrentEdit(locked)
    body = dict(locked.body)
    if command.text.strip():
        body[command.language] = command.text
    elif command.language == locked.original_language:
        raise ValidationError({"text": _("An update needs a text.")})
    else:
        body.pop(command.language, None)
    validate_translations(body)
    before = {"body": locked.body}
    locked.body = body
    locked.body_html = rendered_texts(body)
    locked.version += 1
    locked.updated_at = timezone.now()
    locked.save(update_fields=["body", "body_html", "version", "updated_at"])
    content_changed()
    audit(locked, action="update.edited", actor=actor, before=before, after={"body": body})
    return locked
