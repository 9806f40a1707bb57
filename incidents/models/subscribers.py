"""Subscribers (email, webhook, chat or SMS) and the outbox of deliveries made to them.

A Delivery is written in the transaction that posts the update or changes the status; workers
move it pending → sending (under a lease) → sent or failed.
"""

import secrets

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .components import Component, ComponentStatusChange
from .ids import new_public_id
from .incidents import Incident, IncidentUpdate


class Channel(models.TextChoices):
    EMAIL = "email", _("Email")
    WEBHOOK = "webhook", _("Webhook")
    SLACK = "slack", _("Slack")
    TEAMS = "teams", _("Microsoft Teams")
    APPRISE = "apprise", _("Chat (Apprise URL)")
    SMS = "sms", _("SMS")

    @property
    def uses_target(self) -> bool:
        """Chat and SMS subscribers are reached at `target`; email and webhook ones at their own fields."""
        return self not in (Channel.EMAIL, Channel.WEBHOOK)


def new_webhook_secret() -> str:
    return secrets.token_urlsafe(32)


def new_token_key() -> str:
    return secrets.token_urlsafe(12)


class SubscriberQuerySet(models.QuerySet):
    def active(self):
        """Confirmed, not unsubscribed, not a follow at rest: the only subscribers anything is sent to."""
        return self.filter(
            confirmed_at__isnull=False, unsubscribed_at__isnull=True, follow_ended_at__isnull=True
        )


class Subscriber(models.Model):
    public_id = models.CharField(max_length=12, unique=True, default=new_public_id, editable=False)
    channel = models.CharField(max_length=16, choices=Channel.choices, default=Channel.EMAIL)
    # The recipient for email subscribers; the contact that confirms a webhook, chat or SMS
    # subscription made on the public page (empty for those an admin added through the API).
    email = models.EmailField(max_length=254, blank=True)
    # `email` as one inbox (incidents/security/address_variants.py: no +tag, quotes, case or
    # Gmail dots), so a variant of a subscribed address finds its subscription again.
    email_key = models.CharField(max_length=254, blank=True, db_index=True, editable=False)
    endpoint_url = models.URLField(max_length=2000, blank=True)
    # Where a chat or SMS subscriber is reached, in the format its channel module checks
    # (incidents/channels/): a Slack or Teams webhook URL, an Apprise URL, an E.164 number.
    # Often carries a credential, so it is masked wherever it is read back.
    target = models.CharField(max_length=2000, blank=True)
    # Signs webhook bodies (HMAC-SHA256); the receiver is shown it once, on confirmation.
    webhook_secret = models.CharField(max_length=64, default=new_webhook_secret, editable=False)
    language = models.CharField(max_length=8, default="en")
    all_components = models.BooleanField(default=True)
    components = models.ManyToManyField(Component, blank=True, related_name="subscribers")
    # A subscription to one incident only; it rests while the incident is resolved.
    incident = models.ForeignKey(
        Incident, null=True, blank=True, on_delete=models.CASCADE, related_name="followers"
    )
    # Part of every signed manage/unsubscribe link: rotating it revokes the links already sent.
    token_key = models.CharField(max_length=32, default=new_token_key, editable=False)
    created_at = models.DateTimeField(default=timezone.now)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # Only ever set by the subscriber (or staff on their behalf): final, nothing wakes it up.
    unsubscribed_at = models.DateTimeField(null=True, blank=True)
    # A follow comes to rest when its incident resolves (after the resolving update) and wakes
    # up if the incident reopens; kept apart from `unsubscribed_at`, which a reopen never undoes.
    follow_ended_at = models.DateTimeField(null=True, blank=True)

    objects = SubscriberQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            # One page-wide subscription per address and channel target; one follow per incident.
            models.UniqueConstraint(
                fields=["channel", "email", "endpoint_url", "target"],
                condition=models.Q(incident__isnull=True),
                name="one_page_subscription_per_address",
            ),
            models.UniqueConstraint(
                fields=["channel", "email", "endpoint_url", "target", "incident"],
                condition=models.Q(incident__isnull=False),
                name="one_follow_per_address_and_incident",
            ),
        ]
        indexes = [models.Index(fields=["confirmed_at", "unsubscribed_at"])]

    def __str__(self) -> str:
        # Chat targets carry credentials: only the public id names such a subscriber.
        shown = self.public_id if Channel(self.channel).uses_target else self.address
        return f"{self.get_channel_display()}: {shown}"

    @property
    def address(self) -> str:
        """Where this subscriber is reached, whatever its channel."""
        if self.channel == Channel.EMAIL:
            return self.email
        if self.channel == Channel.WEBHOOK:
            return self.endpoint_url
        return self.target

    @property
    def is_active(self) -> bool:
        return self.confirmed_at is not None and self.unsubscribed_at is None and self.follow_ended_at is None

    @property
    def is_resting(self) -> bool:
        """A confirmed follow whose incident is resolved: it hears again if the incident reopens."""
        return (
            self.confirmed_at is not None
            and self.unsubscribed_at is None
            and self.follow_ended_at is not None
        )


class DeliveryState(models.TextChoices):
    PENDING = "pending", _("Pending")
    SENDING = "sending", _("Sending")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")


class Delivery(models.Model):
    # What the notification is about: an incident update (email and webhook) or a component's
    # status change (webhook `component_update`); exactly one of the two.
    update = models.ForeignKey(
        IncidentUpdate, null=True, blank=True, on_delete=models.CASCADE, related_name="deliveries"
    )
    status_change = models.ForeignKey(
        ComponentStatusChange, null=True, blank=True, on_delete=models.CASCADE, related_name="deliveries"
    )
    subscriber = models.ForeignKey(Subscriber, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(max_length=16, choices=Channel.choices)
    # The email's Message-ID and the webhook's event id, so a receiver can drop the duplicate a
    # crash inside one lease window may cause.
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
            ),
            models.UniqueConstraint(
                fields=["status_change", "subscriber"], name="one_delivery_per_status_change_subscriber"
            ),
            models.CheckConstraint(
                condition=models.Q(update__isnull=False, status_change__isnull=True)
                | models.Q(update__isnull=True, status_change__isnull=False),
                name="delivery_about_an_update_or_a_status_change",
            ),
        ]
        indexes = [
            # Serves the claim: pending rows of one channel that are due, oldest first.
            models.Index(fields=["state", "channel", "next_attempt_at"]),
            # Serves the sweep of expired leases.
            models.Index(fields=["state", "lease_until"]),
        ]

    def __str__(self) -> str:
        return f"{self.idempotency_key} ({self.state})"

    @property
    def is_component_update(self) -> bool:
        return self.status_change_id is not None


def idempotency_key_prefix(subject: IncidentUpdate | ComponentStatusChange) -> str:
    return f"{subject.public_id}."


def idempotency_key_for(subject: IncidentUpdate | ComponentStatusChange, subscriber: Subscriber) -> str:
    """Stable for a (update or status change, subscriber) pair; the outbox insert builds the same in SQL."""
    return idempotency_key_prefix(subject) + subscriber.public_id
