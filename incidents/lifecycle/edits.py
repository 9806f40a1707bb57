"""Correcting what was written: an incident's fields and links, an update's text, and making a
draft public."""

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import Impact, Incident, IncidentUpdate, Subject
from incidents.public.versions import content_changed
from incidents.rendering import rendered_texts
from incidents.services.audit import record_event
from incidents.services.notifications import enqueue_notifications
from incidents.translation import validate_language, validate_translations
from incidents.validation.concurrency import ConcurrentEdit

from .commands import EditIncident, EditUpdate
from .incident_windows import edited_fields, set_window
from .opening import check_title_field
from .records import write_records_impact
from .related import relate_incidents
from .updates import locked_incident


@transaction.atomic
def edit_incident(incident: Incident, command: EditIncident, *, actor: User | None) -> Incident:
    """Changes an incident's title, impact, display time zone, start or resolution time and its
    related incidents, refusing if someone saved it meanwhile. Moving a published incident's
    start or end by more than a day takes an admin or a `reason`, kept in the audit trail."""
    locked = locked_incident(incident, expected_version=command.expected_version)
    window_edited = command.started_at is not None or command.resolved_at is not None
    before = edited_fields(locked, with_window=window_edited)
    set_window(
        locked,
        started_at=command.started_at,
        resolved_at=command.resolved_at,
        actor=actor,
        reason=command.reason,
    )
    if command.display_time_zone is not None:
        locked.display_time_zone = command.display_time_zone
    if command.title is not None:
        _set_title(locked, dict(command.title))
    if command.impact is not None:
        locked.impact = Impact(command.impact)
    locked.version += 1
    locked.updated_at = timezone.now()
    locked.full_clean()
    locked.save()
    content_changed()
    if locked.backfilled and window_edited:
        write_records_impact([locked])
    _audit_edit(locked, before=before, reason=command.reason.strip(), window=window_edited, actor=actor)
    if command.related is not None:
        relate_incidents(locked, related=command.related, actor=actor)
    return locked


def _audit_edit(
    incident: Incident, *, before: dict[str, Any], reason: str, window: bool, actor: User | None
) -> None:
    after = edited_fields(incident, with_window=window)
    record_event(
        actor=actor,
        action="incident.edited",
        subject_type=Subject.INCIDENT,
        subject_id=incident.pk,
        subject_label=str(incident),
        before=before,
        after=after | ({"reason": reason} if reason else {}),
        incident=incident,
    )


def _set_title(incident: Incident, title: dict[str, str]) -> None:
    validate_translations(title)
    check_title_field(title)
    incident.title = title


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
    record_event(
        actor=actor,
        action="incident.published",
        subject_type=Subject.INCIDENT,
        subject_id=locked.pk,
        subject_label=str(locked),
        before={"published": False},
        after={"published": True},
        incident=locked,
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
    record_event(
        actor=actor,
        action="update.edited",
        subject_type=Subject.UPDATE,
        subject_id=locked.pk,
        subject_label=str(locked.incident),
        before=before,
        after={"body": body},
        incident=locked.incident,
    )
    return locked
