"""Declaring incidents, posting timeline updates, resolving and reopening."""

import datetime as dt
from collections.abc import Mapping

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import (
    Component,
    ComponentChange,
    ComponentStatus,
    Impact,
    Incident,
    IncidentKind,
    IncidentStatus,
    IncidentUpdate,
    Subject,
)
from incidents.public.versions import content_changed
from incidents.rendering import rendered_texts
from incidents.translation import validate_language, validate_translations
from incidents.validation.instants import PLANNED, check_instants, incident_start_kind
from incidents.validation.texts import check_title, check_titles

from .audit import record_event
from .components import set_component_status
from .incident_windows import check_record_age, check_shown_time, edited_fields, set_window
from .notifications import enqueue_notifications
from .proposals import default_update_text
from .records import status_at, write_record_impact
from .resolution import resolution
from .slugs import incident_slug
from .transitions import check_status, check_transition


class ConcurrentEdit(Exception):
    """Someone else saved the object since the editor loaded it."""

    def __init__(self, current):
        super().__init__(f"{current!r} was changed by someone else")
        self.current = current


def unique_slug(title: str, *, at: dt.datetime) -> str:
    slug = incident_slug(title, at=at)
    candidate, n = slug, 2
    while Incident.objects.filter(slug=candidate).exists():
        candidate, n = f"{slug}-{n}", n + 1
    return candidate


def _apply_component_statuses(
    incident: Incident,
    component_statuses: Mapping[Component, ComponentStatus | str],
    *,
    update: IncidentUpdate | None,
    shown_at: dt.datetime,
    held_by: Mapping[int, dict[str, str]] | None = None,
    actor: AbstractBaseUser | None,
    at: dt.datetime,
    notify: bool,
) -> None:
    """Moves the components and writes what moved: with `update`, or held by the incident's
    declaration when it was declared without a text."""
    for component, new_status in component_statuses.items():
        new_status = ComponentStatus(new_status)
        if incident.backfilled:
            # A record's statuses belong to its own window (write_record_impact), not to now.
            old_status = status_at(component, shown_at)
        else:
            old_status = Component.objects.values_list("status", flat=True).get(pk=component.pk)
        ComponentChange.objects.create(
            update=update,
            declared_on=None if update else incident,
            component=component,
            old_status=old_status,
            new_status=new_status,
            held_by=(held_by or {}).get(component.pk, {}),
        )
        if incident.backfilled:
            continue
        set_component_status(
            component, status=new_status, actor=actor, at=at, incident=incident, notify=notify
        )


def _check_title_field(check, title) -> None:
    try:
        check(title)
    except ValidationError as error:
        raise ValidationError({"title": error.messages}) from None


def _closing_statuses(
    incident: Incident, chosen: Mapping[Component, ComponentStatus | str], *, now: dt.datetime
) -> tuple[dict[Component, ComponentStatus | str], dict[int, dict[str, str]]]:
    """The resolve rule for every component the incident names, with why a held one stays; a
    status the responder chose for a component wins. A component already where the rule puts it,
    and free, gets no change on the timeline (no "operational → operational")."""
    chosen = dict(chosen)
    statuses: dict[Component, ComponentStatus | str] = {}
    held_by: dict[int, dict[str, str]] = {}
    for resting in resolution(incident, now=now):
        component = resting.component
        was_chosen = component in chosen
        status = ComponentStatus(chosen.pop(component, resting.status))
        if resting.is_held and status == resting.status:
            held_by[component.pk] = resting.reasons_by_language()
        elif not was_chosen and status == component.status and not incident.backfilled:
            continue
        statuses[component] = status
    statuses.update(chosen)  # components this update names for the first time
    return statuses, held_by


def _take_on_declared_changes(incident: Incident, update: IncidentUpdate) -> None:
    """The first written update carries the changes of a declaration that had no text (those of
    components it changes itself stay with the declaration)."""
    if incident.updates.exclude(pk=update.pk).exists():
        return
    ComponentChange.objects.filter(declared_on=incident, update__isnull=True).exclude(
        component__in=update.component_changes.values("component")
    ).update(update=update)


def _declare_action(kind: IncidentKind, *, backfilled: bool) -> str:
    if backfilled:
        return "incident.entered_as_record"
    return "incident.declared" if kind == IncidentKind.INCIDENT else "maintenance.scheduled"


@transaction.atomic
def declare_incident(
    *,
    title: str,
    language: str,
    body: str = "",
    impact: Impact | str = Impact.MINOR,
    component_statuses: Mapping[Component, ComponentStatus | str] | None = None,
    actor: AbstractBaseUser | None,
    kind: IncidentKind | str = IncidentKind.INCIDENT,
    status: IncidentStatus | str | None = None,
    started_at: dt.datetime | None = None,
    scheduled_for: dt.datetime | None = None,
    scheduled_until: dt.datetime | None = None,
    publish: bool = True,
    display_time_zone: str = "",
    backfilled: bool = False,
    deliver_notifications: bool | None = None,
) -> Incident:
    """Opens an incident (or schedules maintenance), with a first update when `body` has a text,
    in one transaction; without one it takes `status` (investigating by default) and writes no
    update: its component statuses wait for the first written update to carry them.
    `deliver_notifications=False` declares it without telling subscribers.

    `backfilled` enters it as a record of the past: its updates notify nobody and its component
    statuses count on its own days, never as the components' current status."""
    validate_language(language)
    if not title.strip():
        raise ValidationError({"title": _("An incident needs a title.")})
    _check_title_field(check_title, title)
    kind = IncidentKind(kind)
    start = {"started_at": started_at}
    starts_as_planned = incident_start_kind(kind) == PLANNED
    check_instants(
        happened={} if starts_as_planned else start,
        planned={"scheduled_for": scheduled_for, "scheduled_until": scheduled_until}
        | (start if starts_as_planned else {}),
    )
    now = timezone.now()
    if backfilled:
        check_record_age(started_at or scheduled_for, now=now)
    if kind == IncidentKind.MAINTENANCE:
        if not scheduled_for or not scheduled_until:
            raise ValidationError({"scheduled_for": _("Maintenance needs a planned window.")})
        if scheduled_until <= scheduled_for:
            raise ValidationError({"scheduled_until": _("The window must end after it starts.")})
    started_at = started_at or scheduled_for or now
    component_statuses = dict(component_statuses or {})
    incident = Incident(
        slug=unique_slug(title, at=started_at),
        kind=kind,
        title={language: title.strip()},
        original_language=language,
        impact=Impact(impact),
        started_at=started_at,
        scheduled_for=scheduled_for,
        scheduled_until=scheduled_until,
        published_at=now if publish else None,
        backfilled=backfilled,
        display_time_zone=display_time_zone,
        created_by=actor,
    )
    first_status = check_status(
        incident,
        status
        or (IncidentStatus.SCHEDULED if kind == IncidentKind.MAINTENANCE else IncidentStatus.INVESTIGATING),
    )
    incident.status = first_status
    # Scheduled maintenance changes its components when the window opens (the maintenance sweep).
    opens_now = first_status != IncidentStatus.SCHEDULED
    incident.full_clean(exclude=["slug"])
    incident.save()
    content_changed()
    incident.components.set(component_statuses)
    record_event(
        actor=actor,
        action=_declare_action(kind, backfilled=backfilled),
        subject_type=Subject.INCIDENT,
        subject_id=incident.pk,
        subject_label=str(incident),
        after={
            "title": incident.title,
            "impact": incident.impact,
            "status": incident.status,
            "published": publish,
            "backfilled": backfilled,
            "display_time_zone": incident.display_time_zone,
        },
        incident=incident,
    )
    changes_now = component_statuses if publish and opens_now else {}
    shown_at = started_at if started_at < now else now
    if body.strip():
        post_update(
            incident,
            status=first_status,
            body={language: body},
            language=language,
            component_statuses=changes_now,
            display_at=shown_at,
            actor=actor,
            deliver_notifications=deliver_notifications,
        )
    else:
        # Without a text nothing is written to the timeline: the incident holds the components'
        # change from its start (a record's impact is read from it), and its first written
        # update carries it to readers.
        _apply_component_statuses(
            incident,
            changes_now,
            update=None,
            shown_at=shown_at,
            actor=actor,
            at=now,
            notify=deliver_notifications is not False and not backfilled,
        )
    incident.refresh_from_db()
    return incident


@transaction.atomic
def post_update(
    incident: Incident,
    *,
    status: IncidentStatus | str | None,
    body: dict[str, str],
    language: str,
    component_statuses: Mapping[Component, ComponentStatus | str] | None = None,
    display_at: dt.datetime | None = None,
    actor: AbstractBaseUser | None,
    expected_version: int | None = None,
    deliver_notifications: bool | None = None,
    reopening: bool = False,
) -> IncidentUpdate:
    """Adds a timeline update; the incident takes the status of its newest update with one. One
    without a status is a context event (a deploy, a note): it notifies nobody unless asked to.

    A closed incident is not reopened or closed again but by `reopen_incident` (TransitionRefused).
    An update of a record of the past never notifies."""
    validate_language(language)
    validate_translations(body)
    if not body.get(language, "").strip():
        raise ValidationError({"body": _("An update needs a text.")})
    locked = Incident.objects.select_for_update().get(pk=incident.pk)
    if expected_version is not None and locked.version != expected_version:
        raise ConcurrentEdit(locked)
    status = check_status(locked, status) if status else None
    now = timezone.now()
    display_at = display_at or now
    check_instants(happened={"display_at": display_at})
    check_shown_time(locked, status, display_at=display_at)
    if status is not None:
        check_transition(locked, status, display_at=display_at, reopening=reopening)
    if deliver_notifications is None:
        deliver_notifications = status is not None
    update = IncidentUpdate.objects.create(
        incident=locked,
        status=status or "",
        body=body,
        body_html=rendered_texts(body),
        original_language=language,
        display_at=display_at,
        created_at=now,
        updated_at=now,
        author=actor,
        deliver_notifications=deliver_notifications and not locked.backfilled,
    )
    component_statuses = dict(component_statuses or {})
    if component_statuses:
        locked.components.add(*component_statuses)
    held_by: dict[int, dict[str, str]] = {}
    if status is not None and status.is_closed:
        component_statuses, held_by = _closing_statuses(locked, component_statuses, now=now)
    _apply_component_statuses(
        locked,
        component_statuses,
        update=update,
        shown_at=display_at,
        held_by=held_by,
        actor=actor,
        at=now,
        notify=update.deliver_notifications,
    )
    _take_on_declared_changes(locked, update)
    newest = locked.updates.status_changes().timeline().first()
    before = {"status": locked.status}
    if newest is not None:
        locked.status = newest.status
    if status == IncidentStatus.MONITORING and not locked.monitoring_at:
        locked.monitoring_at = display_at
    if IncidentStatus(locked.status).is_closed:
        locked.resolved_at = locked.resolved_at or display_at
    else:
        locked.resolved_at = None
    locked.version += 1
    locked.updated_at = now
    locked.save(update_fields=["status", "monitoring_at", "resolved_at", "version", "updated_at"])
    content_changed()
    if locked.backfilled:
        write_record_impact(locked)
    record_event(
        actor=actor,
        action="update.posted",
        subject_type=Subject.UPDATE,
        subject_id=update.pk,
        subject_label=str(locked),
        before=before,
        after={
            "status": locked.status,
            "update_status": status or None,
            "body": body,
            "display_at": display_at.isoformat(),
            "notify": update.deliver_notifications,
        },
        incident=locked,
    )
    enqueue_notifications(update)
    incident.refresh_from_db()
    return update


@transaction.atomic
def resolve_incident(
    incident: Incident,
    *,
    body: dict[str, str],
    language: str,
    actor: AbstractBaseUser | None,
    display_at: dt.datetime | None = None,
    expected_version: int | None = None,
) -> IncidentUpdate:
    """Closes an incident with the resolve rule (incidents.services.resolution): its components go
    back to operational unless something still holds them. Without a text, the default message."""
    closing = IncidentStatus.COMPLETED if incident.is_maintenance else IncidentStatus.RESOLVED
    if not body.get(language, "").strip():
        body = {**body, language: default_update_text(closing, language=language)}
    return post_update(
        incident,
        status=closing,
        body=body,
        language=language,
        display_at=display_at,
        actor=actor,
        expected_version=expected_version,
    )


@transaction.atomic
def reopen_incident(
    incident: Incident,
    *,
    body: dict[str, str],
    language: str,
    actor: AbstractBaseUser | None,
    expected_version: int | None = None,
) -> IncidentUpdate:
    """Reopens a resolved incident as investigating (or maintenance as in progress)."""
    status = IncidentStatus.IN_PROGRESS if incident.is_maintenance else IncidentStatus.INVESTIGATING
    return post_update(
        incident,
        status=status,
        body=body,
        language=language,
        actor=actor,
        expected_version=expected_version,
        reopening=True,
    )


@transaction.atomic
def publish_incident(incident: Incident, *, actor: AbstractBaseUser | None) -> Incident:
    """Makes a draft incident public."""
    locked = Incident.objects.select_for_update().get(pk=incident.pk)
    if locked.published_at is None:
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
            enqueue_notifications(newest)  # subscribers hear of a draft when it goes public
    return locked


@transaction.atomic
def edit_incident(
    incident: Incident,
    *,
    actor: AbstractBaseUser | None,
    expected_version: int,
    title: dict[str, str] | None = None,
    impact: Impact | str | None = None,
    display_time_zone: str | None = None,
    started_at: dt.datetime | None = None,
    resolved_at: dt.datetime | None = None,
    reason: str = "",
) -> Incident:
    """Changes an incident's title, impact, display time zone, start or resolution time, refusing
    if someone saved it meanwhile. Moving a published incident's start or end by more than a
    day takes an admin or a `reason`, kept in the audit trail."""
    locked = Incident.objects.select_for_update().get(pk=incident.pk)
    if locked.version != expected_version:
        raise ConcurrentEdit(locked)
    window_edited = started_at is not None or resolved_at is not None
    before = edited_fields(locked, with_window=window_edited)
    set_window(locked, started_at=started_at, resolved_at=resolved_at, actor=actor, reason=reason)
    if display_time_zone is not None:
        locked.display_time_zone = display_time_zone
    if title is not None:
        validate_translations(title)
        _check_title_field(check_titles, title)
        locked.title = title
    if impact is not None:
        locked.impact = Impact(impact)
    locked.version += 1
    locked.updated_at = timezone.now()
    locked.full_clean()
    locked.save()
    content_changed()
    if locked.backfilled and window_edited:
        write_record_impact(locked)
    record_event(
        actor=actor,
        action="incident.edited",
        subject_type=Subject.INCIDENT,
        subject_id=locked.pk,
        subject_label=str(locked),
        before=before,
        after=edited_fields(locked, with_window=window_edited)
        | ({"reason": reason.strip()} if reason.strip() else {}),
        incident=locked,
    )
    return locked
