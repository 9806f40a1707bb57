"""Staff actions on deliveries: putting failed ones back in the outbox, audited."""

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from incidents.models import Delivery, DeliveryState, IncidentUpdate, Subject

from .audit import record_event
from .notifications import kick


def _requeue(deliveries) -> int:
    """Failed rows back to pending, due now with a fresh budget of attempts. Only rows that
    failed move (a conditional UPDATE), and they keep their idempotency keys, so nothing already
    sent goes out again and a receiver can still drop a duplicate."""
    retried = deliveries.filter(state=DeliveryState.FAILED).update(
        state=DeliveryState.PENDING, attempts=0, next_attempt_at=timezone.now(), last_error=""
    )
    if retried:
        transaction.on_commit(kick)
    return retried


@transaction.atomic
def retry_failed_deliveries(update: IncidentUpdate, *, actor: AbstractBaseUser | None) -> int:
    """Puts the update's failed deliveries back in the outbox; returns how many."""
    retried = _requeue(Delivery.objects.filter(update=update))
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
    return retried


@transaction.atomic
def retry_failed_delivery(delivery: Delivery, *, actor: AbstractBaseUser | None) -> bool:
    """Puts one failed delivery back in the outbox (the staff list of failed deliveries)."""
    retried = _requeue(Delivery.objects.filter(pk=delivery.pk))
    if retried:
        # Named by its key, never by its recipient: the trail is read by every staff member.
        record_event(
            actor=actor,
            action="deliveries.retried",
            subject_type=Subject.UPDATE if delivery.update_id else Subject.COMPONENT,
            subject_id=delivery.update_id or delivery.status_change.component_id,
            subject_label=delivery.idempotency_key,
            after={"retried": 1},
            incident=delivery.update.incident if delivery.update_id else None,
        )
    return bool(retried)
