"""Links between related incidents: one shown on the other's page, both ways."""

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from incidents.models import Incident, Subject
from incidents.public.versions import content_changed
from incidents.services.audit import record_event


@transaction.atomic
def relate_incidents(incident: Incident, *, related: Iterable[Incident], actor: User | None) -> Incident:
    """Makes `related` the incidents linked to this one (each then links back), audited."""
    related = list(dict.fromkeys(related))
    if any(other.pk == incident.pk for other in related):
        raise ValidationError({"related": _("An incident cannot be related to itself.")})
    before = sorted(incident.related.values_list("slug", flat=True))
    incident.related.set(related)
    after = sorted(other.slug for other in related)
    if before == after:
        return incident
    content_changed()
    record_event(
        actor=actor,
        action="incident.related",
        subject_type=Subject.INCIDENT,
        subject_id=incident.pk,
        subject_label=str(incident),
        before={"related": before},
        after={"related": after},
        incident=incident,
    )
    return incident
