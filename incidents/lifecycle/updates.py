"""Posting to an incident's timeline (updates, resolving, reopening): the steps an incident may
take, and what its updates do to its components."""

import datetime as dt
from collections.abc import Mapping

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import (
    Component,
    ComponentChange,
    ComponentStatus,
    Incident,
    IncidentKind,
    IncidentStatus,
    IncidentUpdate,
)
from incidents.public.versions import content_changed
from incidents.rendering import rendered_texts
from incidents.services.components import set_component_status
from incidents.services.notifications import enqueue_notifications
from incidents.translation import validate_language, validate_translations
from incidents.validation.concurrency import ConcurrentEdit
from incidents.validation.instants import check_instants

from .audit import audit
from .commands import ComponentStatuses, PostUpdate, ReopenIncident, ResolveIncident
from .proposals import default_update_text
from .records import status_at, write_records_impact
from .resolution import resolution


class TransitionRefused(ValidationError):
    """The incident is not in a state this step can start from (409 in the API)."""


def check_status(incident: Incident, status: IncidentStatus | str) -> IncidentStatus:
    status = IncidentStatus(status)
    if status not in incident.allowed_statuses():
        raise ValidationError(
            {"status": _("%(status)s is not a status for this kind of event.") % {"status": status.label}}
        )
    return status


def check_transition(
    incident: Incident, status: IncidentStatus, *, display_at: dt.datetime, reopening: bool
) -> None:
    """A closed incident is closed once, and reopens only through `reopen_incident`.

    An open status that would not become the newest update (a backdated entry filling in the
    timeline) leaves the incident closed, so it is allowed."""
    newest = incident.updates.status_changes().timeline().first()
    is_closed = newest is not None and IncidentStatus(incident.status).is_closed
    if reopening:
        if not is_closed:
            raise TransitionRefused({"status": _("This is still open: there is nothing to reopen.")})
        return
    if not is_closed:
        if status.is_closed and newest is not None and display_at < newest.display_at:
            # Closing before the newest update would leave that update's open status in force.
            raise ValidationError({"display_at": _("It cannot be closed before its latest update.")})
        return
    if status.is_closed:
        if incident.kind == IncidentKind.MAINTENANCE:
            raise TransitionRefused({"status": _("This maintenance is already completed.")})
        raise TransitionRefused({"status": _("This incident is already resolved.")})
    if display_at >= newest.display_at:
        raise TransitionRefused({"status": _("This is closed: reopen it first, then post the update.")})


def check_shown_time(incident: Incident, status: IncidentStatus | None, *, display_at: dt.datetime) -> None:
    """An incident is not resolved before it started, and a note (a context event) lies at most
    CONTEXT_NOTE_LEAD_DAYS before its start."""
    if status is not None and status.is_closed and incident.kind == IncidentKind.INCIDENT:
        if display_at < incident.started_at:
            raise ValidationError({"display_at": _("The resolution cannot come before the start.")})
    lead = dt.timedelta(days=settings.CONTEXT_NOTE_LEAD_DAYS)
    if status is None and display_at < incident.started_at - lead:
        raise ValidationError(
            {
                "display_at": _("A note can be shown at most %(days)s days before the incident started.")
                % {"days": settings.CONTEXT_NOTE_LEAD_DAYS}
            }
        )


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


def apply_component_statuses(
    incident: Incident,
    component_statuses: ComponentStatuses,
    *,
    update: IncidentUpdate | None,
    shown_at: dt.datetime,
    held_by: Mapping[int, dict[str, str]] | None = None,
    actor: User | None,
    at: dt.datetime,
    notify: bool,
) -> None:
    """Moves the components and writes what moved: with `update`, or held by the incident's
    declaration when it was declared without a text."""
    for component, status in component_statuses.items():
        new_status = ComponentStatus(status)
        # A record's statuses belong to its own window (write_records_impact), not to now.
        old_status = (
            status_at(component, shown_at)
            if incident.backfilled
            else Component.objects.values_list("status", flat=True).get(pk=component.pk)
        )
        ComponentChange.objects.create(
            update=update,
            declared_on=None if update else incident,
            component=component,
            old_status=old_status,
            new_status=new_status,
            held_by=(held_by or {}).get(component.pk, {}),
        )
        if not incident.backfilled:
            set_component_status(
                component, status=new_status, actor=actor, at=at, incident=incident, notify=notify
            )


def closing_statuses(
    incident: Incident, chosen: ComponentStatuses, *, now: dt.datetime
) -> tuple[dict[Component, ComponentStatus | str], dict[int, dict[str, str]]]:
    """The resolve rule for every component the incident names, with why a held one stays; a
    status the responder chose for a component wins. A component already where the rule puts it,
    and free, gets no change on the timeline (no "operational → operational")."""
    remaining = dict(chosen)
    statuses: dict[Component, ComponentStatus | str] = {}
    held_by: dict[int, dict[str, str]] = {}
    for resting in resolution(incident, now=now):
        component = resting.component
        was_chosen = component in remaining
        status = ComponentStatus(remaining.pop(component, resting.status))
        if resting.holds and status == resting.status:
            held_by[component.pk] = resting.reasons_by_language()
        elif not was_chosen and status == component.status and not incident.backfilled:
            continue
        statuses[component] = status
    statuses.update(remaining)  # components this update names for the first time
    return statuses, held_by


def take_on_declared_changes(incident: Incident, update: IncidentUpdate) -> None:
    """The first written update carries the changes of a declaration that had no text (those of
    components it changes itself stay with the declaration)."""
    if incident.updates.exclude(pk=update.pk).exists():
        return
    ComponentChange.objects.filter(declared_on=incident, update__isnull=True).exclude(
        component__in=update.component_changes.values("component")
    ).update(update=update)


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
    update: IncidentUpdate, *, before: dict[str, str], status: IncidentStatus | None, actor: User | None
) -> None:
    after = {
        "status": update.incident.status,
        "update_status": status or None,
        "body": update.body,
        "display_at": update.display_at.isoformat(),
        "notify": update.deliver_notifications,
    }
    audit(update, action="update.posted", actor=actor, before=before, after=after)
