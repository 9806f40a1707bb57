"""What an incident's updates do to its components: the changes written on the timeline, the
components moved, and where the resolve rule puts them when it closes."""

import datetime as dt
from collections.abc import Mapping

from django.contrib.auth.models import User

from incidents.models import Component, ComponentChange, ComponentStatus, Incident, IncidentUpdate
from incidents.services.components import set_component_status

from .commands import ComponentStatuses
from .records import status_at
from .resolution import resolution


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
        old_status: str
        if incident.backfilled:
            # A record's statuses belong to its own window (write_records_impact), not to now.
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
        if resting.is_held and status == resting.status:
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
