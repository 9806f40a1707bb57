"""Opening an event: declaring an incident, scheduling maintenance, entering a record of the past.
Each runs in one transaction with its first update and its related incidents."""

import datetime as dt

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import Impact, Incident, IncidentKind, IncidentStatus
from incidents.public.versions import content_changed
from incidents.translation import validate_language
from incidents.validation.instants import PLANNED, check_instants, incident_start_kind

from .audit import audit
from .commands import DeclareIncident, EnterRecord, Opening, PostUpdate, ScheduleMaintenance
from .edits import check_title_field, relate_incidents
from .slugs import unique_slug
from .updates import apply_component_statuses, check_status, write_update

# An outage of the last hour is news: entered as a record, it would reach no subscriber.
RECORD_MIN_AGE = dt.timedelta(hours=1)


@transaction.atomic
def declare_incident(command: DeclareIncident, *, actor: User | None) -> Incident:
    """Opens an incident, with a first update when the command has a text; without one it writes
    no update, and its component statuses wait for the first written update to carry them."""
    return _open(command, kind=IncidentKind.INCIDENT, notify=command.notify, actor=actor)


@transaction.atomic
def schedule_maintenance(command: ScheduleMaintenance, *, actor: User | None) -> Incident:
    """Plans a maintenance window; its components change when the window starts (or at once when
    it is declared in progress)."""
    return _open(command, kind=IncidentKind.MAINTENANCE, notify=command.notify, actor=actor)


@transaction.atomic
def enter_record(command: EnterRecord, *, actor: User | None) -> Incident:
    """Enters an incident (or maintenance) of the past: it notifies nobody, and its component
    statuses count on its own days, never as the components' current status."""
    return _open(command, kind=IncidentKind(command.kind), backfilled=True, notify=False, actor=actor)


def open_event(
    command: DeclareIncident | ScheduleMaintenance | EnterRecord, *, actor: User | None
) -> Incident:
    """Runs whichever opening the caller's form or body asked for."""
    if isinstance(command, EnterRecord):
        return enter_record(command, actor=actor)
    if isinstance(command, ScheduleMaintenance):
        return schedule_maintenance(command, actor=actor)
    return declare_incident(command, actor=actor)


def _check_opening(command: Opening, *, kind: IncidentKind, record: bool) -> None:
    validate_language(command.language)
    if not command.title.strip():
        raise ValidationError({"title": _("An incident needs a title.")})
    check_title_field(command.title)
    start = {"started_at": command.started_at}
    planned = {"scheduled_for": command.scheduled_for, "scheduled_until": command.scheduled_until}
    if incident_start_kind(kind) == PLANNED:
        check_instants(planned=planned | start)
    else:
        check_instants(happened=start, planned=planned)
    started_at = command.started_at or command.scheduled_for
    if record and (started_at is None or started_at > timezone.now() - RECORD_MIN_AGE):
        raise ValidationError(
            {
                "started_at": _(
                    "A record of the past must have started more than an hour ago: declare a "
                    "recent outage as an incident, so its subscribers hear of it."
                )
            }
        )
    if kind != IncidentKind.MAINTENANCE:
        return
    if not command.scheduled_for or not command.scheduled_until:
        raise ValidationError({"scheduled_for": _("Maintenance needs a planned window.")})
    if command.scheduled_until <= command.scheduled_for:
        raise ValidationError({"scheduled_until": _("The window must end after it starts.")})


def _open(
    command: Opening,
    *,
    kind: IncidentKind,
    backfilled: bool = False,
    notify: bool | None,
    actor: User | None,
) -> Incident:
    _check_opening(command, kind=kind, record=backfilled)
    now = timezone.now()
    started_at = command.started_at or command.scheduled_for or now
    incident = Incident(
        slug=unique_slug(command.title, at=started_at),
        kind=kind,
        title={command.language: command.title.strip()},
        original_language=command.language,
        impact=Impact(command.impact),
        started_at=started_at,
        scheduled_for=command.scheduled_for,
        scheduled_until=command.scheduled_until,
        published_at=now if command.publish else None,
        backfilled=backfilled,
        display_time_zone=command.display_time_zone,
        created_by=actor,
    )
    _save_new(incident, command, actor=actor)
    _first_changes(incident, command, notify=notify, actor=actor, now=now)
    if command.related:
        relate_incidents(incident, related=command.related, actor=actor)
    incident.refresh_from_db()
    return incident


def _save_new(incident: Incident, command: Opening, *, actor: User | None) -> None:
    first = IncidentStatus.SCHEDULED if incident.is_maintenance else IncidentStatus.INVESTIGATING
    incident.status = check_status(incident, command.status or first)
    incident.full_clean(exclude=["slug"])
    incident.save()
    content_changed()
    incident.components.set(command.component_statuses)
    if incident.backfilled:
        action = "incident.entered_as_record"
    else:
        action = "maintenance.scheduled" if incident.is_maintenance else "incident.declared"
    after = {
        "title": incident.title,
        "impact": incident.impact,
        "status": incident.status,
        "published": command.publish,
        "backfilled": incident.backfilled,
        "display_time_zone": incident.display_time_zone,
    }
    audit(incident, action=action, actor=actor, after=after)


def _first_changes(
    incident: Incident,
    command: Opening,
    *,
    notify: bool | None,
    actor: User | None,
    now: dt.datetime,
) -> None:
    # Scheduled maintenance changes its components when the window opens (the maintenance sweep).
    opens_now = incident.status != IncidentStatus.SCHEDULED
    changes_now = dict(command.component_statuses) if command.publish and opens_now else {}
    shown_at = min(incident.started_at, now)
    if command.body.strip():
        first_update = PostUpdate(
            status=incident.status,
            body={command.language: command.body},
            language=command.language,
            component_statuses=changes_now,
            display_at=shown_at,
            notify=notify,
        )
        write_update(incident, first_update, actor=actor, reopening=False)
        return
    # Without a text nothing is written to the timeline: the incident holds the components'
    # change from its start (a record's impact is read from it), and its first written update
    # carries it to readers.
    apply_component_statuses(
        incident,
        changes_now,
        update=None,
        shown_at=shown_at,
        actor=actor,
        at=now,
        notify=notify is not False and not incident.backfilled,
    )
