"""Writing the outbox: who hears about an update or a component's status change, and the
"look now" message to the workers.

`enqueue_notifications` runs inside the transaction that posts the update, and
`enqueue_component_update` inside the one that changes a component's status, so the change and
its delivery rows are saved together or not at all. The Celery message is sent only after the
commit and only says "look now": when the broker is down the rows wait for the periodic sweep,
and the outcome is recorded so the editor can tell the person who published.

Component status changes go to webhook subscribers only (Statuspage's `component_update`
event); email subscribers hear about the incident updates that explain them.
"""

import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from celery import current_app
from django.conf import settings
from django.db import connection, models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from incidents.channels.registry import DISPATCH_LANES
from incidents.models import (
    Channel,
    ComponentStatusChange,
    Delivery,
    DeliveryState,
    IncidentStatus,
    IncidentUpdate,
    Subscriber,
    idempotency_key_prefix,
)

logger = logging.getLogger(__name__)

DISPATCH_TASK = "incidents.notify.dispatch"
WEBHOOK_LANE = next(lane for lane, channels in DISPATCH_LANES.items() if Channel.WEBHOOK in channels)


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
    """Collects the kick outcomes of the services called inside, for the editor to report."""
    log = KickLog()
    token = _watchers.set((*_watchers.get(), log))
    try:
        yield log
    finally:
        _watchers.reset(token)


def _record(subject: IncidentUpdate | ComponentStatusChange, outcome: KickOutcome) -> None:
    subject.notification_outcome = outcome
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
    closed = IncidentStatus(incident.status).is_closed
    # An explicit unsubscribe (`unsubscribed_at`) is final: neither line below touches it.
    follows = Subscriber.objects.filter(incident=incident, unsubscribed_at__isnull=True)
    if not closed:  # followers hear about a reopened incident
        follows.filter(follow_ended_at__isnull=False).update(follow_ended_at=None)
    if not update.deliver_notifications or incident.published_at is None:
        written = 0
    else:
        written = _insert_deliveries(recipients_of(update), subject_field="update", subject=update)
    if closed:  # a follow rests while its incident is resolved: the resolving update is its last
        follows.filter(follow_ended_at__isnull=True).update(follow_ended_at=timezone.now())
    if written:
        transaction.on_commit(lambda: kick(update))
    else:
        _record(update, KickOutcome.NOTHING_TO_SEND)
    return written


def component_update_recipients(change: ComponentStatusChange):
    """Active page-wide webhook subscribers whose components include the one that changed."""
    return (
        Subscriber.objects.active()
        .filter(channel=Channel.WEBHOOK, incident__isnull=True)
        .filter(Q(all_components=True) | Q(components=change.component_id))
        .distinct()
    )


def enqueue_component_update(change: ComponentStatusChange) -> int:
    """Writes one pending `component_update` webhook per recipient of `change`; call it inside
    the transaction that changes the status."""
    written = _insert_deliveries(
        component_update_recipients(change), subject_field="status_change", subject=change
    )
    if written:
        # Only the kick is reported: "nobody to tell" about a status change is not news to the
        # editor, who hears about the update that carries it.
        transaction.on_commit(lambda: kick(change, lanes=[WEBHOOK_LANE]))
    return written


def _insert_deliveries(recipients, *, subject_field: str, subject) -> int:
    """One INSERT … SELECT for all recipients: 20,000 rows in well under a second, where
    building 20,000 model instances for bulk_create holds the posting transaction for seconds.
    `subject_field` names what the deliveries are about (`update` or `status_change`); the key
    is `idempotency_key_for(subject, subscriber)`, computed in SQL."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    recipients_sql, recipients_params = recipients.order_by().values("pk").query.sql_with_params()
    table, subscribers = Delivery._meta.db_table, Subscriber._meta.db_table
    column = {f.name: f.column for f in Delivery._meta.concrete_fields}
    sql = (
        f"INSERT INTO {table} ({column[subject_field]}, {column['subscriber']}, {column['channel']}, "
        f"{column['idempotency_key']}, {column['state']}, {column['attempts']}, "
        f"{column['next_attempt_at']}, {column['created_at']}, {column['last_error']}) "
        f"SELECT %s, s.id, s.channel, %s || s.public_id, %s, 0, %s, %s, '' "
        f"FROM {subscribers} s WHERE s.id IN ({recipients_sql}) "
        "ON CONFLICT DO NOTHING"
    )
    key_prefix = idempotency_key_prefix(subject)
    params = (subject.pk, key_prefix, DeliveryState.PENDING, now, now, *recipients_params)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return max(cursor.rowcount, 0)


def kick(
    subject: IncidentUpdate | ComponentStatusChange | None = None, *, lanes: Iterable[str] = DISPATCH_LANES
) -> KickOutcome:
    """Tells the notify workers to look now, in each of `lanes` (mail first). Never raises: the
    outbox rows are the truth."""
    try:
        for lane in lanes:
            # One message per worker slot that should work in parallel (claims never overlap).
            for _ in range(max(settings.NOTIFY_DISPATCH_PARALLEL, 1)):
                current_app.send_task(DISPATCH_TASK, kwargs={"lane": lane}, retry=False)  # to `notify`
        outcome = KickOutcome.QUEUED
    except Exception:  # any broker failure; the sweep sends the rows later
        logger.warning("Task queue unreachable; notifications wait for the sweep", exc_info=True)
        outcome = KickOutcome.BROKER_UNREACHABLE
    if subject is not None:
        _record(subject, outcome)
    return outcome
