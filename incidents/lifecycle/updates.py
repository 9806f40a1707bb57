"""Posting to an incident's timeline: updates, resolving and reopening."""

import datetime as dt

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import Incident, IncidentStatus, IncidentUpdate, Subject
from incidents.public.versions import content_changed
from incidents.rendering import rendered_texts
from incidents.services.audit import record_event
from incidents.services.notifications import enqueue_notifications
from incidents.translation import validate_language, validate_translations
from incidents.validation.concurrency import ConcurrentEdit
from incidents.validation.instants import check_instants

from .commands import PostUpdate, ReopenIncident, ResolveIncident
from .component_changes import apply_component_statuses, closing_statuses, take_on_declared_changes
from .incident_windows import check_shown_time
from .proposals import default_update_text
from .records import write_records_impact
from .transitions import check_status, check_transition


def locked_incident(incident: Incident, *, expected_version: int | None) -> Incident:
    """The incident under a row lock; ConcurrentEdit if it is no longer at `expected_version`."""
    locked = Incident.objects.select_for_update().get(pk=incident.pk)
    if expected_version is not None and locked.version != expected_version:
        raise ConcurrentEdit(locked)
    return locked


@transaction.atomic
def post_update(incident: Incident, command: PostUpdate, *, actor: User | None) -> IncidentUpdate:
    """Adds a timeline update; the incident takes the status of its newest update with one. One
    without a status is a context event: it notifies nobody unless asked to.

    A closed incident is not reopened or closed again but by `reopen_incident` (TransitionRefused).
    An update of a record of the past never notifies."""
    return write_update(incident, command, actor=actor, reopening=False)


@transaction.atomic
def resolve_incident(incident: Incident, command: ResolveIncident, *, actor: User | None) -> IncidentUpdate:
    """Closes an incident with the resolve rule (lifecycle.resolution): its components go back
    to operational unless something still holds them. Without a text, the default message."""
    closing = IncidentStatus.COMPLETED if incident.is_maintenance else IncidentStatus.RESOLVED
    body = dict(command.body)
    if not body.get(command.language, "").strip():
        body[command.language] = default_update_text(closing, language=command.language)
    posting = PostUpdate(
        status=closing,
        body=body,
        language=command.language,
        display_at=command.display_at,
        expected_version=command.expected_version,
    )
    return write_update(incident, posting, actor=actor, reopening=False)


@transaction.atomic
def reopen_incident(incident: Incident, command: ReopenIncident, *, actor: User | None) -> IncidentUpdate:
    """Reopens a resolved incident as investigating (or maintenance as in progress)."""
    status = IncidentStatus.IN_PROGRESS if incident.is_maintenance else IncidentStatus.INVESTIGATING
    posting = PostUpdate(
        status=status, body=command.body, language=command.language, expected_version=command.expected_version
    )
    return write_update(incident, posting, actor=actor, reopening=True)


def write_update(
    incident: Incident, command: PostUpdate, *, actor: User | None, reopening: bool
) -> IncidentUpdate:
    """post_update's work, inside its caller's transaction."""
    validate_language(command.language)
    validate_translations(dict(command.body))
    if not command.body.get(command.language, "").strip():
        raise ValidationError({"body": _("An update needs a text.")})
    locked = locked_incident(incident, expected_version=command.expected_version)
    status = check_status(locked, command.status) if command.status else None
    now = timezone.now()
    display_at = command.display_at or now
    check_instants(happened={"display_at": display_at})
    check_shown_time(locked, status, display_at=display_at)
    if status is not None:
        check_transition(locked, status, display_at=display_at, reopening=reopening)
    notify = status is not None if command.notify is None else command.notify
    update = IncidentUpdate.objects.create(
        incident=locked,
        status=status or "",
        body=dict(command.body),
        body_html=rendered_texts(dict(command.body)),
        original_language=command.language,
        display_at=display_at,
        created_at=now,
        updated_at=now,
        author=actor,
        deliver_notifications=notify and not locked.backfilled,
    )
    _move_components(locked, update, command, status=status, actor=actor, now=now)
    before = {"status": locked.status}
    _take_status(locked, status, display_at=display_at, now=now)
    _audit_update(update, before=before, status=status, actor=actor)
    enqueue_notifications(update)
    incident.refresh_from_db()
    return update


def _move_components(
    incident: Incident,
    update: IncidentUpdate,
    command: PostUpdate,
    *,
    status: IncidentStatus | None,
    actor: User | None,
    now: dt.datetime,
) -> None:
    statuses = dict(command.component_statuses)
    if statuses:
        incident.components.add(*statuses)
    held_by: dict[int, dict[str, str]] = {}
    if status is not None and status.is_closed:
        statuses, held_by = closing_statuses(incident, statuses, now=now)
    apply_component_statuses(
        incident,
        statuses,
        update=update,
        shown_at=update.display_at,
        held_by=held_by,
        actor=actor,
        at=now,
        notify=update.deliver_notifications,
    )
    take_on_declared_changes(incident, update)


def _take_status(
    incident: Incident, status: IncidentStatus | None, *, display_at: dt.datetime, now: dt.datetime
) -> None:
    """The incident takes its newest status update's status, and the times that go with it."""
    newest = incident.updates.status_changes().timeline().first()
    if newest is not None:
        incident.status = newest.status
    if status == IncidentStatus.MONITORING and not incident.monitoring_at:
        incident.monitoring_at = display_at
    if IncidentStatus(incident.status).is_closed:
        incident.resolved_at = incident.resolved_at or display_at
    else:
        incident.resolved_at = None
    incident.version += 1
    incident.updated_at = now
    incident.save(update_fields=["status", "monitoring_at", "resolved_at", "version", "updated_at"])
    content_changed()
    if incident.backfilled:
        write_records_impact([incident])


def _audit_update(
    update: IncidentUpdate,
    *,
    before: dict[str, str],
    status: IncidentStatus | None,
    actor: User | None,
) -> None:
    incident = update.incident
    record_event(
        actor=actor,
        action="update.posted",
        subject_type=Subject.UPDATE,
        subject_id=update.pk,
        subject_label=str(incident),
        before=before,
        after={
            "status": incident.status,
            "update_status": status or None,
            "body": update.body,
            "display_at": update.display_at.isoformat(),
            "notify": update.deliver_notifications,
        },
        incident=incident,
    )
