"""Changing component status, groups and components."""

import datetime as dt
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from incidents.models import (
    Component,
    ComponentGroup,
    ComponentStatus,
    ComponentStatusChange,
    StatusPeriod,
    Subject,
)
from incidents.public.versions import content_changed, live_changed
from incidents.validation.instants import check_instants

from .audit import record_changes, record_event
from .component_limits import check_room_for_components
from .notifications import enqueue_component_update
from .uptime_months import count_closed_period, recount_uptime_months


def set_component_status(
    component: Component,
    *,
    status: ComponentStatus | str,
    actor: AbstractBaseUser | None,
    at: dt.datetime | None = None,
    reason: str = "",
    incident=None,
    automation: str = "system",
    notify: bool = True,
) -> bool:
    """Moves a component to `status` as a person decided (the API, an incident update,
    maintenance), closing its current status period. False if unchanged."""
    changed = _move_status(
        component,
        status=status,
        actor=actor,
        at=at,
        reason=reason,
        incident=incident,
        automation=automation,
        notify=notify,
    )
    if changed:
        content_changed()
    return changed


def observe_component_status(
    component: Component, *, status: ComponentStatus, at: dt.datetime, reason: str, automation: str
) -> bool:
    """Moves an automatic component to the status its probes measured; a live figure, so only
    the pages showing live figures are dropped. False if unchanged."""
    changed = _move_status(
        component, status=status, actor=None, at=at, reason=reason, incident=None, automation=automation
    )
    if changed:
        live_changed()
    return changed


def _move_status(
    component: Component,
    *,
    status: ComponentStatus | str,
    actor: AbstractBaseUser | None,
    at: dt.datetime | None,
    reason: str,
    incident,
    automation: str,
    notify: bool = True,
) -> bool:
    """Every status change, whatever made it, passes here, so this is where webhook subscribers
    get their `component_update`; `notify` is False only for an incident update posted with
    notifications turned off."""
    status = ComponentStatus(status)
    at = at or timezone.now()
    with transaction.atomic():
        locked = Component.objects.select_for_update().get(pk=component.pk)
        if locked.status == status:
            return False
        old_status = locked.status
        closing = StatusPeriod.objects.filter(component=locked, ended_at__isnull=True).first()
        if closing is not None:
            closing.ended_at = at
            closing.save(update_fields=["ended_at"])
            count_closed_period(locked, closing)
        StatusPeriod.objects.create(component=locked, status=status, started_at=at)
        Component.objects.filter(pk=locked.pk).update(
            status=status, status_changed_at=at, updated_at=timezone.now()
        )
        change = ComponentStatusChange.objects.create(
            component=locked, old_status=old_status, new_status=status, created_at=at
        )
        if notify:
            enqueue_component_update(change)
        record_event(
            actor=actor,
            action="component.status_changed",
            subject_type=Subject.COMPONENT,
            subject_id=locked.pk,
            subject_label=str(locked),
            before={"status": old_status},
            after={"status": status.value, **({"reason": reason} if reason else {})},
            incident=incident,
            automation=automation,
        )
    component.status = status
    component.status_changed_at = at
    return True


COMPONENT_FIELDS = (
    "slug",
    "name",
    "description",
    "position",
    "group_id",
    "status_mode",
    "showcase",
    "only_show_if_degraded",
    "uptime_target",
)


def _snapshot(component: Component) -> dict:
    # A target as text ("99.900"): the audit trail is JSON, and Decimal is not.
    return {
        field: f"{value:.3f}" if isinstance(value := getattr(component, field), Decimal) else value
        for field in COMPONENT_FIELDS
    }


def save_component(component: Component, *, actor: AbstractBaseUser | None) -> Component:
    """Creates or edits a component (not its status) and records what changed; refuses a new
    one past PAGE_MAX_COMPONENTS."""
    component.full_clean()
    with transaction.atomic():
        creating = component.pk is None
        if creating:
            check_room_for_components()
        previous = None if creating else Component.objects.get(pk=component.pk)
        if creating or previous.start_date != component.start_date:
            check_instants(happened={"start_date": component.start_date})
        before = {} if previous is None else _snapshot(previous)
        component.updated_at = timezone.now()
        component.save()
        content_changed()
        if creating:
            StatusPeriod.objects.create(
                component=component, status=component.status, started_at=component.status_changed_at
            )
        elif previous.start_date != component.start_date:
            recount_uptime_months([component])
        record_changes(
            component,
            actor=actor,
            action="component.created" if creating else "component.changed",
            subject_type=Subject.COMPONENT,
            before=before,
            after=_snapshot(component),
        )
    return component


def save_group(group: ComponentGroup, *, actor: AbstractBaseUser | None) -> ComponentGroup:
    """Creates or edits a component group and records what changed."""
    group.full_clean()
    fields = ("slug", "name", "description", "position")
    with transaction.atomic():
        creating = group.pk is None
        before = {} if creating else {f: getattr(ComponentGroup.objects.get(pk=group.pk), f) for f in fields}
        group.updated_at = timezone.now()
        group.save()
        content_changed()
        record_changes(
            group,
            actor=actor,
            action="group.created" if creating else "group.changed",
            subject_type=Subject.COMPONENT_GROUP,
            before=before,
            after={f: getattr(group, f) for f in fields},
        )
    return group
