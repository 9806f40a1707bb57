"""Who was told about an update: its delivery counts per channel (never the recipients)."""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from incidents.selectors.deliveries import UpdateDeliveries

from .strict import ApiSerializer


class DeliveryCountsSerializer(ApiSerializer):
    queued = serializers.IntegerField(help_text=_("Waiting in the outbox or being sent."))
    sent = serializers.IntegerField(help_text=_("Accepted by the mail server or the receiver."))
    failed = serializers.IntegerField(help_text=_("Given up after the last attempt; staff can retry them."))


class UpdateDeliveriesSerializer(ApiSerializer):
    update = serializers.CharField(help_text=_("The update's id."))
    deliveries = serializers.DictField(
        child=DeliveryCountsSerializer(),
        help_text=_("Counts per channel (email, webhook, and any other channel the platform sends through)."),
    )
    totals = DeliveryCountsSerializer(help_text=_("The counts of all channels together."))


def update_deliveries_data(update_id: str, told: UpdateDeliveries) -> dict:
    return {
        "update": update_id,
        "deliveries": told.as_dict(),
        "totals": {"queued": told.queued, "sent": told.sent, "failed": told.failed},
    }
