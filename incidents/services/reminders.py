"""The daily email to each owner of overdue action items: one a day, whatever the number of items."""

import datetime as dt
from collections import defaultdict
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from incidents.channels.emails import overdue_reminder_mail
from incidents.models import ActionItem, ActionItemState, OverdueReminder, ReminderState


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
    claimed = OverdueReminder.objects.filter(pk=reminder.pk, state=ReminderState.PENDING).update(
        state=ReminderState.SENDING, item_ids=item_ids
    )
    return reminder if claimed else None


def send_overdue_reminders(*, now: dt.datetime | None = None) -> int:
    """Emails each owner of overdue items once for the status page's current day; returns how many."""
    now = now or timezone.now()
    local_now = now.astimezone(ZoneInfo(settings.STATUS_TIME_ZONE))
    if local_now.hour < settings.OVERDUE_REMINDER_HOUR:
        return 0  # not before the working day starts where the status page lives
    today = local_now.date()
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
        except Exception:
            # Back to pending so the next sweep of the same day tries again.
            OverdueReminder.objects.filter(pk=reminder.pk).update(state=ReminderState.PENDING)
            raise
        OverdueReminder.objects.filter(pk=reminder.pk).update(state=ReminderState.SENT, sent_at=now)
        sent += 1
    return sent
