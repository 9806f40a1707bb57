"""Working the delivery outbox: claim, send, record; and the sweep that recovers lost work.

A row moves pending → sending → sent or failed. Claiming is one transaction: lock due pending
rows with SKIP LOCKED (workers never wait for each other) and flip them to sending with a
lease, checking the conditional UPDATE's row count. A worker that dies leaves its rows in
sending; once the lease expires the sweep puts them back to pending. So no row is lost, and a
duplicate can only come from rows the server accepted but this worker had not yet marked when
it died. SMTP cannot close that window (RFC 1047: the server has the mail before the client
hears "250"); the marks bound it (`SentMarks`): a batch's accepted rows are marked in one UPDATE
at its end, or every MARK_WITHIN_SECONDS against a server slow enough to make a batch last
longer. So a killed worker sends again at most one batch, each mail with its Message-ID.
A worker stops sending before its lease ends, timed from before it asked for the rows, so a
claim whose answer came late (the database out of reach meanwhile) is not sent past its lease
(`deliver_batch`); and it writes nothing on its return to rows the sweep has since given to
another worker (`Claim`).
"""

import datetime as dt
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from incidents.channels.base import Result
from incidents.channels.email import kept_mail_connection
from incidents.channels.http_posts import kept_connections
from incidents.channels.registry import CHANNELS
from incidents.models import Channel, Delivery, DeliveryState
from incidents.telemetry import instruments

MARK_WITHIN_SECONDS = 0.25
UNSENT = (DeliveryState.PENDING, DeliveryState.SENDING)
# A channel whose claim found nothing is asked again after this long within a dispatch run.
IDLE_CHANNEL_SECONDS = 1.0
# A worker sends for this share of its lease, leaving the rest for the marks of what it sent.
SENDING_SHARE_OF_LEASE = 0.75


def retry_delay(attempts: int) -> dt.timedelta:
    """Exponential backoff with "equal jitter": half the step fixed, half random."""
    step = min(
        settings.NOTIFY_RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0), settings.NOTIFY_RETRY_MAX_SECONDS
    )
    return dt.timedelta(seconds=step / 2 + random.uniform(0, step / 2))  # jitter, not secrets


@dataclass(frozen=True)
class Claim:
    """Rows leased to this worker. Their lease's end doubles as the claim's mark: what the worker
    sends, fails or hands back names it, so once the sweep has given the rows to another worker
    (a node cut off from the database for longer than the lease), this one neither sends them
    nor changes them on its return; only its sent marks stand (what went out must not go again)."""

    ids: list[int]
    lease_until: dt.datetime | None = None
    send_until: float = 0.0  # monotonic; see `claim`

    def rows(self) -> QuerySet[Delivery]:
        return Delivery.objects.filter(
            pk__in=self.ids, state=DeliveryState.SENDING, lease_until=self.lease_until
        )


def claim(*, channel: str, size: int, now: dt.datetime | None = None) -> Claim:
    """Leases up to `size` due pending rows of `channel` to this worker.

    Its time to send is counted from before the claim was asked for: the answer may come late
    (a COMMIT stuck while the node was cut off arrives with a lease already run out), and the
    sweep times the lease from `now`."""
    asked_at = time.monotonic()
    now = now or timezone.now()
    lease_until = now + dt.timedelta(seconds=settings.NOTIFY_LEASE_SECONDS)
    with transaction.atomic():
        ids = list(
            Delivery.objects.select_for_update(skip_locked=True)
            .filter(state=DeliveryState.PENDING, channel=channel, next_attempt_at__lte=now)
            .order_by("next_attempt_at", "id")
            .values_list("pk", flat=True)[:size]
        )
        if not ids:
            return Claim(ids=[])
        claimed = Delivery.objects.filter(pk__in=ids, state=DeliveryState.PENDING).update(
            state=DeliveryState.SENDING, lease_until=lease_until, attempts=F("attempts") + 1
        )
        if claimed != len(ids):
            # Only possible without row locks (SQLite serialises writers instead); start over.
            transaction.set_rollback(True)
            return Claim(ids=[])
    send_until = asked_at + settings.NOTIFY_LEASE_SECONDS * SENDING_SHARE_OF_LEASE
    return Claim(ids=ids, lease_until=lease_until, send_until=send_until)


@dataclass
class BatchReport:
    sent: int = 0
    retried: int = 0
    failed: int = 0
    dropped: int = 0
    held: int = 0  # not tried: the receiver's circuit is open

    def add(self, other: "BatchReport") -> None:
        for name in ("sent", "retried", "failed", "dropped", "held"):
            setattr(self, name, getattr(self, name) + getattr(other, name))


class SentMarks:
    """Rows the server accepted, marked `sent` at the end of the batch or every
    MARK_WITHIN_SECONDS, and a group answered together (concurrent posts, or one message a
    channel wants marked at once) in one UPDATE before the next group goes out. An UPDATE per
    mail would cost more than the mail against a fast server."""

    def __init__(self, claim: Claim) -> None:
        self.claim = claim
        self.unmarked: list[int] = []
        self.marked = 0
        self.last_mark_at = time.monotonic()

    def add(self, pks: list[int], *, group: bool) -> None:
        self.unmarked.extend(pks)
        if group or time.monotonic() - self.last_mark_at >= MARK_WITHIN_SECONDS:
            self.flush()

    def flush(self) -> None:
        if self.unmarked:
            # Whoever holds them now: they went out, and rows released meanwhile must not go again.
            Delivery.objects.filter(pk__in=self.unmarked, state__in=UNSENT).update(
                state=DeliveryState.SENT, sent_at=timezone.now(), lease_until=None, last_error=""
            )
            self.marked += len(self.unmarked)
            self.unmarked = []
        self.last_mark_at = time.monotonic()


def _record_failure(result: Result, report: BatchReport, claim: Claim) -> None:
    delivery, now = result.delivery, timezone.now()
    give_up = result.permanent or delivery.attempts >= settings.NOTIFY_MAX_ATTEMPTS
    fields: dict[str, object] = {"lease_until": None, "last_error": result.error[:2000]}
    if result.retry_at:  # not tried: the attempt its claim counted is given back
        fields.update(
            state=DeliveryState.PENDING, next_attempt_at=result.retry_at, attempts=F("attempts") - 1
        )
        report.held += 1
    elif give_up:
        fields.update(state=DeliveryState.FAILED)
        report.failed += 1
    else:
        fields.update(state=DeliveryState.PENDING, next_attempt_at=now + retry_delay(delivery.attempts))
        report.retried += 1
    claim.rows().filter(pk=delivery.pk).update(**fields)


def deliver_batch(claim: Claim) -> BatchReport:
    """Sends claimed rows through their channel and records each outcome.

    Sends nothing after the claim's `send_until`, handing the unsent rows back: past the lease
    the sweep may give the rows to another worker, and both would send them.
    """
    report = BatchReport()
    deliveries = list(
        claim.rows()
        .select_related("update__incident", "status_change__component__group", "subscriber")
        .order_by("id")
    )
    # Unsubscribed after the update was posted: nothing goes out to them. (A follow that came
    # to rest with the resolving update still gets that update: only unsubscribing counts.)
    gone = [d.pk for d in deliveries if d.subscriber.unsubscribed_at is not None]
    if gone:
        claim.rows().filter(pk__in=gone).delete()
        report.dropped = len(gone)
    deliveries = [d for d in deliveries if d.subscriber.unsubscribed_at is None]
    if not deliveries:
        return report
    if time.monotonic() > claim.send_until:
        _hand_back(claim, {d.pk for d in deliveries})
        return report
    sent = SentMarks(claim)
    unreported = {d.pk for d in deliveries}
    results = CHANNELS[Channel(deliveries[0].channel)].send(deliveries)
    for item in results:
        group = item if isinstance(item, list) else [item]
        for result in group:
            unreported.discard(result.delivery.pk)
            if not result.ok:
                _record_failure(result, report, claim)
        sent.add([result.delivery.pk for result in group if result.ok], group=isinstance(item, list))
        if unreported and time.monotonic() > claim.send_until:
            results.close()
            _hand_back(claim, unreported)
            break
    sent.flush()
    report.sent += sent.marked
    instruments.count_deliveries(
        deliveries[0].channel,
        sent=sent.marked,
        retried=report.retried,
        failed=report.failed,
        dropped=report.dropped,
        held=report.held,
    )
    return report


def _hand_back(claim: Claim, ids: set[int]) -> None:
    """Returns rows this worker claimed but did not try, without counting an attempt."""
    claim.rows().filter(pk__in=ids).update(
        state=DeliveryState.PENDING, lease_until=None, attempts=F("attempts") - 1
    )


@dataclass
class DispatchReport(BatchReport):
    # False when time ran out with due rows left: the caller hands them to a fresh task.
    done: bool = True


def deliver_due(*, seconds: float, channels: Iterable[Channel] | None = None) -> DispatchReport:
    """Claims and sends due rows of `channels` (all by default), channel by channel, until none
    is left or time is up."""
    report = DispatchReport()
    deadline = time.monotonic() + seconds
    transports = {channel: CHANNELS[channel] for channel in (channels or CHANNELS)}
    idle_until = dict.fromkeys(transports, 0.0)  # claims that find nothing cost a query each
    with kept_connections(), kept_mail_connection():
        while time.monotonic() < deadline:
            progressed, skipped = False, []
            for channel, transport in transports.items():
                if time.monotonic() < idle_until[channel]:
                    skipped.append(channel)
                    continue
                claimed = claim(channel=channel, size=getattr(settings, transport.batch_size_setting))
                if claimed.ids:
                    report.add(deliver_batch(claimed))
                    progressed = True
                else:
                    idle_until[channel] = time.monotonic() + IDLE_CHANNEL_SECONDS
            if progressed:
                continue
            if not skipped or not has_due(channels=skipped):
                return report
            time.sleep(max(0.0, min(idle_until[channel] for channel in skipped) - time.monotonic()))
    report.done = False
    return report


def release_expired_leases(now: dt.datetime | None = None) -> int:
    """Puts rows of workers that died back to pending (or failed once out of attempts)."""
    now = now or timezone.now()
    expired = Delivery.objects.filter(state=DeliveryState.SENDING, lease_until__lt=now)
    expired.filter(attempts__gte=settings.NOTIFY_MAX_ATTEMPTS).update(
        state=DeliveryState.FAILED, lease_until=None, last_error="The worker sending it stopped."
    )
    return expired.update(state=DeliveryState.PENDING, lease_until=None, next_attempt_at=now)


def has_due(now: dt.datetime | None = None, *, channels: Iterable[Channel] | None = None) -> bool:
    now = now or timezone.now()
    due = Delivery.objects.filter(state=DeliveryState.PENDING, next_attempt_at__lte=now)
    if channels is not None:
        due = due.filter(channel__in=list(channels))
    return due.exists()
