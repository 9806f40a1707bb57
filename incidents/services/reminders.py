"""The daily email to each owner of overdue action items: one a day, whatever the number of items."""

import datetime as dt
import logging
from collections import defaultdict
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from incidents.channels.emails import overdue_reminder_mail
from incidents.models import ActionItem, ActionItemState, OverdueReminder, ReminderState

logger = logging.getLogger(__name__)

# A claim older than this belongs to a worker that stopped: sending one mail takes seconds.
ABANDONED_AFTER = dt.timedelta(minutes=15)


def overdue_items_by_owner(today: dt.date) -> dict[int, list[ActionItem]]:
    """Overdue items that have an owner with an account, grouped by that owner's id."""
    items = (
        ActionItem.objects.filter(
            state__in=[ActionItemState.OPEN, ActionItemState.IN_PROGRESS],
            due_date__isnull=False,
            due_date__lte=today,
            owner__isnull=False,
        )
        .select_related("owner", "postmortem__incident")
        .order_by("due_date", "id")
    )
    grouped: dict[int, list[ActionItem]] = defaultdict(list)
    for item in items:
        if item.is_overdue(today):
            grouped[item.owner_id].append(item)
    return dict(grouped)


def release_abandoned(today: dt.date, now: dt.datetime) -> None:
    """The watchdog: today's claims left by a stopped worker go back to pending; rows of days
    that have ended unsent end as missed (the next day's reminder lists the items again)."""
    # Claims made before claims were timed have no time: they are as old as can be.
    left = Q(state=ReminderState.SENDING) & (
        Q(claimed_at__lt=now - ABANDONED_AFTER) | Q(claimed_at__isnull=True)
    )
    OverdueReminder.objects.filter(left, day=today).update(state=ReminderState.PENDING, claimed_at=None)
    ended = left | Q(state=ReminderState.PENDING)
    OverdueReminder.objects.filter(ended, day__lt=today).update(state=ReminderState.MISSED)


def _claim(owner_id: int, day: dt.date, item_ids: list[int]) -> OverdueReminder | None:
    """The day's reminder row for this owner, claimed for sending; None if already handled."""
    try:
        with transaction.atomic():
            reminder, _created = OverdueReminder.objects.get_or_create(
                owner_id=owner_id, day=day, defaults={"item_ids": item_ids}
            )
    except IntegrityError:  # created by a concurrent run between our read and our insert
        reminder = OverdueReminder.objects.get(owner_id=owner_id, day=day)
    # The conditional update is the claim: of two runs, only one moves the row out of pending.
    # Its time marks the claim: a worker back after the watchdog released it writes nothing.
    claimed_at = timezone.now()
    claimed = OverdueReminder.objects.filter(pk=reminder.pk, state=ReminderState.PENDING).update(
        state=ReminderState.SENDING, item_ids=item_ids, claimed_at=claimed_at
    )
    reminder.claimed_at = claimed_at
    return reminder if claimed else None


def _ours(reminder: OverdueReminder):
    return OverdueReminder.objects.filter(
        pk=reminder.pk, state=ReminderState.SENDING, claimed_at=reminder.claimed_at
    )


def send_overdue_reminders(*, now: dt.datetime | None = None) -> int:
    """Emails each owner of overdue items once for the status page's current day; returns how many."""
    now = now or timezone.now()
    local_now = now.astimezone(ZoneInfo(settings.STATUS_TIME_ZONE))
    today = local_now.date()
    release_abandoned(today, now)
    if local_now.hour < settings.OVERDUE_REMINDER_HOUR:
        return 0  # not before the working day starts where the status page lives
    overdue = overdue_items_by_owner(today)
    owners = get_user_model().objects.in_bulk(list(overdue))
    sent = 0
    for owner_id, items in overdue.items():
        owner = owners.get(owner_id)
        if owner is None or not owner.email or not owner.is_active:
            continue
        reminder = _claim(owner_id, today, [item.pk for item in items])
        if reminder is None:
            continue
        try:
            overdue_reminder_mail(owner, items).send()
        except Exception:  # any mail failure: this owner waits for the next sweep, the rest do not
            logger.warning(
                "Overdue reminder to user %s not sent; retried next sweep", owner_id, exc_info=True
            )
            _ours(reminder).update(state=ReminderState.PENDING, claimed_at=None)
            continue
        # Marked whoever holds it now: it went out, and a released claim must not go out again.
        OverdueReminder.objects.filter(pk=reminder.pk).update(state=ReminderState.SENT, sent_at=now)
        sent += 1
    return sent
