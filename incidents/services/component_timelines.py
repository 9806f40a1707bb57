"""Which updates each component's feed lists (incidents.models.ComponentTimelineEntry)."""

from collections import defaultdict
from collections.abc import Iterable
from functools import reduce
from operator import or_

from django.db.models import Q

from incidents.models import ComponentTimelineEntry, Incident, IncidentUpdate


def index_component_timelines(incident_ids: Iterable[int]) -> None:
    """Makes ComponentTimelineEntry hold one row per component and update of each incident, with
    the update's times: call it after an incident's updates, their times or its components
    change. Only rows that differ are written (an update adds one row per component)."""
    incident_ids = list(incident_ids)
    components: dict[int, list[int]] = defaultdict(list)
    for incident_id, component_id in Incident.components.through.objects.filter(
        incident_id__in=incident_ids
    ).values_list("incident_id", "component_id"):
        components[incident_id].append(component_id)
    wanted = {
        (component_id, pk): (display_at, created_at)
        for pk, incident_id, display_at, created_at in IncidentUpdate.objects.filter(
            incident_id__in=incident_ids
        ).values_list("pk", "incident_id", "display_at", "created_at")
        for component_id in components[incident_id]
    }
    held = {
        (component_id, update_id): (display_at, created_at)
        for component_id, update_id, display_at, created_at in ComponentTimelineEntry.objects.filter(
            update__incident_id__in=incident_ids
        ).values_list("component_id", "update_id", "display_at", "created_at")
    }
    outdated = [key for key, times in held.items() if wanted.get(key) != times]
    if outdated:
        ComponentTimelineEntry.objects.filter(
            reduce(
                or_,
                (Q(component_id=component_id, update_id=update_id) for component_id, update_id in outdated),
            )
        ).delete()
    ComponentTimelineEntry.objects.bulk_create(
        [
            ComponentTimelineEntry(
                component_id=component_id, update_id=update_id, display_at=at, created_at=created
            )
            for (component_id, update_id), (at, created) in wanted.items()
            if held.get((component_id, update_id)) != (at, created)
        ],
        batch_size=1000,
    )
