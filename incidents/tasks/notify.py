"""Notification tasks (routed to the `notify` queue by name): thin wrappers around the outbox.

A message only says "look now"; the rows say what to send. Both tasks are safe to run twice
or at the same time (claims skip locked rows), so acks_late and redelivery are harmless.
"""

from dataclasses import asdict

from celery import shared_task
from django.conf import settings

from incidents.channels import outbox
from incidents.channels.registry import DISPATCH_LANES
from incidents.services.notifications import kick


@shared_task(name="incidents.notify.dispatch", acks_late=True, ignore_result=True)
def dispatch(lane: str | None = None) -> dict:
    """Sends due deliveries of the lane's channels (of every channel without a lane); hands what
    is left to a fresh task when its time is up."""
    channels = DISPATCH_LANES[lane] if lane else None
    report = outbox.deliver_due(seconds=settings.NOTIFY_DISPATCH_SECONDS, channels=channels)
    if not report.done:
        kick(lanes=[lane] if lane else DISPATCH_LANES)
    return asdict(report)


@shared_task(name="incidents.notify.sweep", acks_late=True, ignore_result=True)
def sweep() -> dict:
    """Periodic: recovers rows of dead workers, and kicks when rows wait (broker was down, retries due)."""
    released = outbox.release_expired_leases()
    due = outbox.has_due()
    if due:
        kick()
    return {"released": released, "due": due}
