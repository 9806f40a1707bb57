"""Writing the outbox: who hears about an update, and the "look now" message to the workers.

`enqueue_notifications` runs inside the transaction that posts the update, so an update and
its delivery rows are saved together or not at all. The Celery message is sent only after the
commit and only says "look now": when the broker is down the rows wait for the periodic sweep,
and the outcome is recorded so the editor can tell the person who published.
"""

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from celery import current_app
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from incidents.models import Delivery, IncidentStatus, IncidentUpdate, Subscriber, idempotency_key_for

logger = logging.getLogger(__name__)

DISPATCH_TASK = "incidents.notify.dispatch"


class KickOutcome(models.TextChoices):
    NOTHING_TO_SEND = "nothing", _("No subscriber is notified of this update.")
    QUEUED = "queued", _("Notifications are being sent.")
    BROKER_UNREACHABLE = (
        "broker_unreachable",
        _(
            "The update is saved, but the task queue could not be reached: notifications will be "
            "sent when it is back (the sweep runs every minute)."
        ),
    )


@dataclass
class KickLog:
    """What happened to the "look now" messages sent while it was being watched."""

    outcomes: list[KickOutcome] = field(default_factory=list)

    @property
    def broker_unreachable(self) -> bool:
        return KickOutcome.BROKER_UNREACHABLE in self.outcomes


_watchers: ContextVar[tuple[KickLog, ...]] = ContextVar("notification_kick_watchers", default=())


@contextmanager
def watch_notifications() -> Iterator[KickLog]:
    """Collects the kick outcomes of the services called inside, for the editor to report.

    with watch_notifications() as kicks:
        declare_incident(...)
    if kicks.broker_unreachable: messages.warning(request, KickOutcome.BROKER_UNREACHABLE.label)
    """
    log = KickLog()
    token = _watchers.set((*_watchers.get(), log))
    try:
        yield log
    finally:
        _watchers.reset(token)


def _record(update: IncidentUpdate, outcome: KickOutcome) -> None:
    update.notification_outcome = outcome
    for log in _watchers.get():
        log.outcomes.append(outcome)


def recipients_of(update: IncidentUpdate):
    """Active subscribers who should hear about `update`: by component, or following its incident."""
    incident = update.incident
    component_ids = set(incident.components.values_list("pk", flat=True))
    component_ids |= set(update.component_changes.values_list("component_id", flat=True))
    page_wide = Q(incident__isnull=True) & (Q(all_components=True) | Q(components__in=component_ids))
    return Subscriber.objects.active().filter(page_wide | Q(incident=incident)).distinct()


def enqueue_notifications(update: IncidentUpdate) -> int:
    """Writes one pending delivery per recipient of `update`; call it inside the posting transaction."""
    incident = update.incident
    if not update.deliver_notifications or incident.published_at is None:
        _record(update, KickOutcome.NOTHING_TO_SEND)
        return 0
    recipients = recipients_of(update).values_list("pk", "public_id", "channel")
    now = timezone.now()
    rows = [
        Delivery(
            update=update,
            subscriber_id=pk,
            channel=channel,
            idempotency_key=idempotency_key_for(update, Subscriber(public_id=public_id)),
            next_attempt_at=now,
            created_at=now,
        )
        for pk, public_id, channel in recipients.iterator(chunk_size=5000)
    ]
    Delivery.objects.bulk_create(rows, batch_size=2000, ignore_conflicts=True)
    if IncidentStatus(update.status).is_closed:
        # A follow ends with the incident: the resolving update is the last one it receives.
        Subscriber.objects.filter(incident=incident, unsubscribed_at__isnull=True).update(unsubscribed_at=now)
    if rows:
        transaction.on_commit(lambda: kick(update))
    else:
        _record(update, KickOutcome.NOTHING_TO_SEND)
    return len(rows)


def kick(update: IncidentUpdate | None = None) -> KickOutcome:
    """Tells the notify workers to look now. Never raises: the outbox rows are the truth."""
    try:
        current_app.send_task(DISPATCH_TASK, queue="notify", retry=False)
        outcome = KickOutcome.QUEUED
    except Exception:  # noqa: BLE001 - any broker failure; the sweep sends the rows later
        logger.warning("Task queue unreachable; notifications wait for the sweep", exc_info=True)
        outcome = KickOutcome.BROKER_UNREACHABLE
    if update is not None:
        _record(update, outcome)
    return outcome
