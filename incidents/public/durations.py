"""How long an incident lasted, or has lasted so far. Durations are differences of UTC instants:
01:30 to 03:30 Oslo time on the night clocks go back is three hours."""

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _

from incidents import formatting
from incidents.models import Incident


@dataclass(frozen=True)
class IncidentDuration:
    seconds: int
    ongoing: bool


def resolved_duration_seconds(incident: Incident) -> int | None:
    """Whole seconds from start to resolution; None while the incident is open."""
    if incident.resolved_at is None or incident.is_open:
        return None
    return max(0, int((incident.resolved_at - incident.started_at).total_seconds()))


def incident_duration(incident: Incident, *, at: dt.datetime | None = None) -> IncidentDuration:
    """The whole duration once resolved; before that (or at `at`, before resolution), the time so far."""
    seconds = resolved_duration_seconds(incident)
    if seconds is not None and (at is None or at >= incident.resolved_at):
        return IncidentDuration(seconds=seconds, ongoing=False)
    elapsed = (at or timezone.now()) - incident.started_at
    return IncidentDuration(seconds=max(0, int(elapsed.total_seconds())), ongoing=True)


def duration_text(incident: Incident, language: str, *, at: dt.datetime | None = None) -> str:
    """ "1 day, 7 hr, 12 min", or "2 hr, 5 min so far (ongoing)" while the incident is open."""
    duration = incident_duration(incident, at=at)
    text = formatting.format_incident_duration(duration.seconds, language)
    if duration.ongoing:
        return _("%(duration)s so far (ongoing)") % {"duration": text}
    return text


def duration_at_update(incident: Incident, language: str, *, at: dt.datetime) -> str:
    """The duration as it stood at an update, so an update's text never changes afterwards; ""
    for maintenance or an update at or before the start."""
    if incident.is_maintenance or at <= incident.started_at:
        return ""
    return duration_text(incident, language, at=at)
