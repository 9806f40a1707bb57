"""What the resolve screen shows before a responder resolves: each of the incident's components,
where it is now and where the resolve rule puts it, with what holds it."""

from dataclasses import dataclass

from incidents.lifecycle.resolution import resolution
from incidents.models import ComponentStatus, Incident
from incidents.public.presentation import shown
from incidents.translation import Shown


@dataclass(frozen=True)
class PlanRow:
    slug: str
    name: Shown
    now: ComponentStatus
    after: ComponentStatus
    held_by: str  # "held by: …" in the editor's language, or ""


def resolve_plan(incident: Incident, *, language: str) -> list[PlanRow]:
    return [
        PlanRow(
            slug=resting.component.slug,
            name=shown(resting.component.name, resting.component, language=language),
            now=ComponentStatus(resting.component.status),
            after=resting.status,
            held_by=resting.reasons(language),
        )
        for resting in resolution(incident)
    ]
