"""The audit event each lifecycle step writes, its subject and incident read from the row."""

from typing import Any

from django.contrib.auth.models import User

from incidents.models import ActionItem, Incident, IncidentUpdate, Postmortem, Subject
from incidents.services.audit import record_event


def audit(
    subject: Incident | IncidentUpdate | Postmortem | ActionItem,
    *,
    action: str,
    actor: User | None,
    before: dict[str, Any] | None = None,
    after: dict[str, Any],
) -> None:
    """Records `action` on `subject`, inside the step's transaction."""
    if isinstance(subject, Incident):
        subject_type, incident, label = Subject.INCIDENT, subject, str(subject)
    elif isinstance(subject, IncidentUpdate):
        # An update has no name of its own: the trail shows its incident's.
        subject_type, incident, label = Subject.UPDATE, subject.incident, str(subject.incident)
    elif isinstance(subject, Postmortem):
        subject_type, incident, label = Subject.POSTMORTEM, subject.incident, str(subject)
    else:
        subject_type, incident, label = Subject.ACTION_ITEM, subject.postmortem.incident, str(subject)
    record_event(
        actor=actor,
        action=action,
        subject_type=subject_type,
        subject_id=subject.pk,
        subject_label=label,
        before=before,
        after=after,
        incident=incident,
    )
