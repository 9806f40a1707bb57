"""Subscribers (email or webhook) and the outbox of deliveries made to them.

A Subscriber is confirmed by double opt-in before anything is sent to it. A Delivery is one
notification for one (update, subscriber): the row is written in the transaction that posts the
update, and workers move it pending → sending (under a lease) → sent or failed.
"""

import secrets

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .components import Component
from .ids import new_public_id
from .incidents import Incident, IncidentUpdate


class Channel(models.TextChoices):
    EMAIL = "email", _("Email")
    WEBHOOK = "webhook", _("Webhook")


def new_webhook_secret() -> str:
    return secrets.token_urlsafe(32)


def new_token_key() -> str:
    return secrets.token_urlsafe(12)


class SubscriberQuerySet(models.QuerySet):
    def active(self):
        """Confirmed and not unsubscribed: the only subscribers anything is sent to."""
        return self.filter(confirmed_at__isnull=False, unsubscribed_at__isnull=True)


class Subscriber(models.Model):
    public_id = models.CharField(max_length=12, unique=True, default=new_public_id, editable=False)
    channel = models.CharField(max_length=16, choices=Channel.choices, default=Channel.EMAIL)
    # The recipient for email subscribers; the contact that confirms a webhook subscription.
    email = models.EmailField(max_length=254)
    endpoint_url = models.URLField(max_length=2000, blank=True)
    # Signs webhook bodies (HMAC-SHA256); the receiver is shown it once, on confirmation.
    webhook_secret = models.CharField(max_length=64, default=new_webhook_secret, editable=False)
    language = models.CharField(max_length=8, default="en")
    all_components = models.BooleanField(default=True)
    components = models.ManyToManyField(Component, blank=True, related_name="subscribers")
    # A subscription to one incident only; it ends when the incident resolves.
    incident = models.ForeignKey(
        Incident, null=True, blank=True, on_delete=models.CASCADE, related_name="followers"
    )
    # Part of every signed manage/unsubscribe link: rotating it revokes the links already sent.
    token_key = models.CharField(max_length=32, default=new_token_key, editable=False)
    created_at = models.DateTimeField(default=timezone.now)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    unsubscribed_at = models.DateTimeField(null=True, blank=True)

    objects = SubscriberQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One page-wide subscription per address and channel target; one follow per incident.
            models.UniqueConstraint(
                fields=["channel", "email", "endpoint_url"],
                condition=models.Q(incident__isnull=True),
                name="one_page_subscription_per_address",
            ),
            models.UniqueConstraint(
                fields=["channel", "email", "endpoint_url", "incident"],
                condition=models.Q(incident__isnull=False),
                name="one_follow_per_address_and_incident",
            ),
        ]
        indexes = [models.Index(fields=["confirmed_at", "unsubscribed_at"])]

    def __str__(self) -> str:
        target = self.endpoint_url if self.channel == Channel.WEBHOOK else self.email
        return f"{self.get_channel_display()}: {target}"

    @property
    def is_active(self) -> bool:
        return self.confirmed_at is not None and self.unsubscribed_at is None


class DeliveryState(models.TextChoices):
    PENDING = "pending", _("Pending")
    SENDING = "sending", _("Sending")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")


class Delivery(models.Model):
    update = models.ForeignKey(IncidentUpdate, on_delete=models.CASCADE, related_name="deliveries")
    subscriber = models.ForeignKey(Subscriber, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(max_length=16, choices=Channel.choices)
    # Derived from (update, subscriber): the email's Message-ID and the webhook's event id, so a
    # receiver can drop the duplicate a crash inside one lease window may cause.
    idempotency_key = models.CharField(max_length=64, unique=True)
    state = models.CharField(max_length=16, choices=DeliveryState.choices, default=DeliveryState.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    lease_until = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["update", "subscriber"], name="one_delivery_per_update_subscriber"
            )
        ]
        indexes = [
            # Serves the claim: pending rows of one channel that are due, oldest first.
            models.Index(fields=["state", "channel", "next_attempt_at"]),
            # Serves the sweep of expired leases.
            models.Index(fields=["state", "lease_until"]),
        ]

    def __str__(self) -> str:
        return f"{self.idempotency_key} ({self.state})"


def idempotency_key_prefix(update: IncidentUpdate) -> str:
    return f"{update.public_id}."


def idempotency_key_for(update: IncidentUpdate, subscriber: Subscriber) -> str:
    """Stable for a (update, subscriber) pair; the outbox insert builds the same in SQL."""
    return idempotency_key_prefix(update) + subscriber.public_id
