"""Staff actions on an update's deliveries."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from incidents.models import Delivery, DeliveryState, IncidentUpdate, Subject

from .audit import record_event
from .notifications import kick


@transaction.atomic
def retry_failed_deliveries(update: IncidentUpdate, *, actor: AbstractBaseUser | None) -> int:
    """Puts the update's failed deliveries back in the outbox, due now; returns how many.

    Only rows that failed move (a conditional UPDATE), and they keep their idempotency keys, so
    nothing already sent goes out again and a receiver can still drop a duplicate."""
    retried = Delivery.objects.filter(update=update, state=DeliveryState.FAILED).update(
        state=DeliveryState.PENDING, attempts=0, next_attempt_at=timezone.now(), last_error=""
    )
    if retried:
        record_event(
            actor=actor,
            action="deliveries.retried",
            subject_type=Subject.UPDATE,
            subject_id=update.pk,
            subject_label=update.public_id,
            after={"retried": retried},
            incident=update.incident,
        )
        transaction.on_commit(lambda: kick(update))
    return retried
