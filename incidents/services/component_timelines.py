"""Which updates each component's feed lists (incidents.models.ComponentTimelineEntry)."""

from collections import defaultdict
from collections.abc import Iterable

from incidents.models import ComponentTimelineEntry, Incident, IncidentUpdate


def index_component_timelines(incident_ids: Iterable[int]) -> None:
    """Makes ComponentTimelineEntry hold one row per component and update of each incident, with the
    update's times: call it after an incident's updates, their times or its components change."""
    incident_ids = list(incident_ids)
    components: dict[int, list[int]] = defaultdict(list)
    for incident_id, component_id in Incident.components.through.objects.filter(
        incident_id__in=incident_ids
    ).values_list("incident_id", "component_id"):
        components[incident_id].append(component_id)
    rows = [
        ComponentTimelineEntry(
            component_id=component_id, update_id=pk, display_at=display_at, created_at=created_at
        )
        for pk, incident_id, display_at, created_at in IncidentUpdate.objects.filter(
            incident_id__in=incident_ids
        ).values_list("pk", "incident_id", "display_at", "created_at")
        for component_id in components[incident_id]
    ]
    ComponentTimelineEntry.objects.filter(update__incident_id__in=incident_ids).delete()
    ComponentTimelineEntry.objects.bulk_create(rows, batch_size=1000)
