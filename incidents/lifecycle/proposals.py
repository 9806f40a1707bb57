"""What the declare and update forms propose before a responder changes it: the impact that the
worst component status implies, and a message for a status when none was typed."""

from collections.abc import Iterable

from django.utils import translation
from django.utils.translation import gettext

from incidents.models import ComponentStatus, Impact, IncidentStatus

# The impact a component status implies, in the order Statuspage proposes it.
IMPACT_FOR_STATUS = {
    ComponentStatus.OPERATIONAL: Impact.NONE,
    ComponentStatus.UNDER_MAINTENANCE: Impact.NONE,
    ComponentStatus.DEGRADED_PERFORMANCE: Impact.MINOR,
    ComponentStatus.PARTIAL_OUTAGE: Impact.MAJOR,
    ComponentStatus.MAJOR_OUTAGE: Impact.CRITICAL,
}


IMPACT_ORDER = list(Impact)


def proposed_impact(statuses: Iterable[ComponentStatus | str]) -> Impact:
    """The highest impact any of `statuses` implies (maintenance implies none, so degraded beside
    it still proposes minor); minor when no component is named, since an incident declared at all
    affects someone."""
    implied = [IMPACT_FOR_STATUS[ComponentStatus(status)] for status in statuses]
    if not implied:
        return Impact.MINOR
    return max(implied, key=IMPACT_ORDER.index)


def default_update_text(status: IncidentStatus | str, *, language: str) -> str:
    """The message posted for `status` when the responder typed none, in `language`."""
    return default_update_texts(language=language)[IncidentStatus(status).value]


def default_update_texts(*, language: str) -> dict[str, str]:
    """Every status's default message in `language`, for the form's live placeholder."""
    with translation.override(language):
        return {
            IncidentStatus.INVESTIGATING: gettext(
                "We are investigating this issue and will post an update soon."
            ),
            IncidentStatus.IDENTIFIED: gettext(
                "The cause has been identified and a fix is being implemented."
            ),
            IncidentStatus.MONITORING: gettext(
                "A fix has been put in place and we are monitoring the results."
            ),
            IncidentStatus.RESOLVED: gettext("This incident has been resolved."),
            IncidentStatus.SCHEDULED: gettext("This maintenance is scheduled."),
            IncidentStatus.IN_PROGRESS: gettext("This maintenance is in progress."),
            IncidentStatus.VERIFYING: gettext(
                "The maintenance work is done and we are verifying the results."
            ),
            IncidentStatus.COMPLETED: gettext("This maintenance has been completed."),
        }
