"""Who was told about an update: deliveries counted per channel and state, never recipients
(every staff member and every token that reads incidents sees them)."""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Count

from incidents.models import Channel, Delivery, DeliveryState, IncidentUpdate

# How a reader sees each state of the outbox.
SHOWN_AS = {
    DeliveryState.PENDING: "queued",
    DeliveryState.SENDING: "queued",
    DeliveryState.SENT: "sent",
    DeliveryState.FAILED: "failed",
}


@dataclass
class ChannelCounts:
    channel: str
    queued: int = 0
    sent: int = 0
    failed: int = 0

    @property
    def label(self) -> str:
        return str(Channel(self.channel).label)

    @property
    def total(self) -> int:
        return self.queued + self.sent + self.failed

    def as_dict(self) -> dict[str, int]:
        return {"queued": self.queued, "sent": self.sent, "failed": self.failed}


@dataclass
class UpdateDeliveries:
    """One update's deliveries: per channel, in the order of `Channel`, then totals."""

    channels: dict[str, ChannelCounts] = field(
        default_factory=lambda: {str(name): ChannelCounts(str(name)) for name in Channel}
    )

    def add(self, channel: str, state: str, count: int) -> None:
        counts = self.channels.setdefault(channel, ChannelCounts(channel))
        shown = SHOWN_AS[DeliveryState(state)]
        setattr(counts, shown, getattr(counts, shown) + count)

    @property
    def used(self) -> list[ChannelCounts]:
        """The channels with at least one delivery."""
        return [counts for counts in self.channels.values() if counts.total]

    @property
    def queued(self) -> int:
        return sum(counts.queued for counts in self.channels.values())

    @property
    def sent(self) -> int:
        return sum(counts.sent for counts in self.channels.values())

    @property
    def failed(self) -> int:
        return sum(counts.failed for counts in self.channels.values())

    @property
    def total(self) -> int:
        return self.queued + self.sent + self.failed

    def as_dict(self) -> dict[str, dict[str, int]]:
        return {name: counts.as_dict() for name, counts in self.channels.items()}


def delivery_counts(updates: Iterable[IncidentUpdate | int]) -> dict[int, UpdateDeliveries]:
    """Counts per update, channel and state, in one query; every update asked for has an entry."""
    ids = [update if isinstance(update, int) else update.pk for update in updates]
    counts: dict[int, UpdateDeliveries] = defaultdict(UpdateDeliveries)
    rows = (
        Delivery.objects.filter(update_id__in=ids)
        .values_list("update_id", "channel", "state")
        .annotate(count=Count("id"))
        .order_by()
    )
    for update_id, channel, state, count in rows:
        counts[update_id].add(channel, state, count)
    return {update_id: counts[update_id] for update_id in ids}


def update_deliveries(update: IncidentUpdate) -> UpdateDeliveries:
    return delivery_counts([update.pk])[update.pk]
