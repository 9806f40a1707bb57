"""Serializers of subscribers (admins only). Manage tokens and webhook secrets never leave, and
chat targets (webhook URLs and Apprise URLs carry credentials) are read back masked."""

from django.conf import settings
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from incidents.channels.registry import check_target, shown_target
from incidents.models import Channel, Component, Incident, Subscriber
from incidents.services.subscriptions import channel_of, check_email, check_endpoint

from .serializers import LANGUAGE_CHOICES, PublicIdField
from .strict import ApiModelSerializer, ApiSerializer


def django_check(check, value, *, field: str = ""):
    """`value` once `check` passes; its messages as a 400 (under `field` when one is named)."""
    try:
        check(value)
    except DjangoValidationError as error:
        raise serializers.ValidationError({field: error.messages} if field else error.messages) from None
    return value


class SubscriberSerializer(ApiModelSerializer):
    id = serializers.CharField(source="public_id", read_only=True)
    endpoint_url = serializers.CharField(read_only=True, help_text=_("Empty for email subscribers."))
    target = serializers.SerializerMethodField(
        help_text=_(
            "Where notifications go: the address, the webhook URL, or for chat and SMS the phone "
            "number or the service URL with its secret part masked (write-only)."
        )
    )
    components = serializers.SlugRelatedField(
        slug_field="public_id",
        many=True,
        read_only=True,
        help_text=_("The components followed; empty when `all_components`."),
    )
    incident = serializers.SlugRelatedField(slug_field="public_id", read_only=True, allow_null=True)
    is_active = serializers.BooleanField(
        read_only=True,
        help_text=_("Confirmed, not unsubscribed, and not a follow of a resolved incident."),
    )
    follow_ended_at = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text=_("When the followed incident resolved; cleared if it reopens."),
    )

    class Meta:
        model = Subscriber
        fields = [
            "id",
            "channel",
            "email",
            "endpoint_url",
            "target",
            "language",
            "all_components",
            "components",
            "incident",
            "created_at",
            "confirmed_at",
            "unsubscribed_at",
            "follow_ended_at",
            "is_active",
        ]
        read_only_fields = fields

    def get_target(self, subscriber: Subscriber) -> str:
        if Channel(subscriber.channel).uses_target:
            return shown_target(subscriber.channel, subscriber.target)
        return subscriber.address


class SubscriberCreateSerializer(ApiSerializer):
    channel = serializers.ChoiceField(
        choices=Channel.choices,
        required=False,
        help_text=_("Defaults to webhook when `endpoint_url` is given, else email."),
    )
    target = serializers.CharField(
        max_length=2000,
        required=False,
        allow_blank=True,
        default="",
        help_text=_(
            "Where notifications go: an email address, a webhook URL, a Slack or Teams webhook URL, an "
            "Apprise URL (discord://, tgram://, matrixs://, mmosts://, json://) or a phone number in "
            "international format (sms). For email and webhook, `email` and `endpoint_url` still work."
        ),
    )
    email = serializers.CharField(
        max_length=254,
        required=False,
        allow_blank=True,
        default="",
        help_text=_("The address notified (or, for a webhook, the contact who confirms it)."),
    )
    endpoint_url = serializers.CharField(
        max_length=2000,
        required=False,
        allow_blank=True,
        default="",
        help_text=_("A webhook endpoint; makes this a webhook subscription."),
    )
    language = serializers.ChoiceField(choices=LANGUAGE_CHOICES)
    components = serializers.ListField(
        child=PublicIdField(queryset=Component.objects.all()),
        required=False,
        max_length=500,
        help_text=_("Component ids; none means the whole page."),
    )
    incident = PublicIdField(
        queryset=Incident.objects.all(),
        required=False,
        allow_null=True,
        help_text=_("An incident id: follow that incident only, until it resolves."),
    )
    confirmed = serializers.BooleanField(
        default=False,
        help_text=_(
            "Double opt-in still applies to API-created subscribers: unless this is true, the "
            "subscription is unconfirmed and the address is mailed a confirmation link, and nothing "
            "is sent to it before it confirms. true (email subscriptions only) records an address "
            "the admin has consent for as confirmed at once, and sends no mail. Chat and SMS "
            "subscribers (slack, teams, apprise, sms) are always confirmed at once."
        ),
    )

    def validate_email(self, value):
        return django_check(check_email, value.strip()) if value.strip() else ""

    def validate_endpoint_url(self, value):
        return django_check(check_endpoint, value) if value else value

    def validate(self, attrs):
        attrs["channel"] = channel = channel_of(
            channel=attrs.get("channel", ""), endpoint_url=attrs.get("endpoint_url", "")
        )
        target = attrs.pop("target", "").strip()
        if channel.uses_target:
            attrs["target"] = self._chat_target(channel, target)
        elif target:
            field = "email" if channel == Channel.EMAIL else "endpoint_url"
            if attrs.get(field) and attrs[field] != target:
                raise serializers.ValidationError(
                    {"target": [_("Give `target` or `%(field)s`, not both.") % {"field": field}]}
                )
            attrs[field] = django_check(
                check_email if channel == Channel.EMAIL else check_endpoint, target, field="target"
            )
        if channel != Channel.WEBHOOK and attrs.get("endpoint_url"):
            raise serializers.ValidationError({"endpoint_url": [_("Only webhook subscriptions have one.")]})
        if channel == Channel.WEBHOOK and not attrs.get("endpoint_url"):
            raise serializers.ValidationError({"target": [_("A webhook subscription needs its URL.")]})
        if channel == Channel.WEBHOOK and not attrs.get("email"):
            message = _("A webhook subscription needs the address of the contact who confirms it.")
            raise serializers.ValidationError({"email": [message]})
        if channel == Channel.EMAIL and not attrs.get("email"):
            field = "target" if "channel" in self.initial_data else "email"
            raise serializers.ValidationError({field: [_("This field is required.")]})
        return attrs

    def _chat_target(self, channel: Channel, target: str) -> str:
        if channel == Channel.SMS and not settings.SMS_APPRISE_URL:
            raise serializers.ValidationError(
                {"channel": [_("This status page sends no SMS: SMS_APPRISE_URL is not set.")]}
            )
        if not target:
            raise serializers.ValidationError({"target": [_("This field is required.")]})
        try:
            return check_target(channel, target)
        except DjangoValidationError as error:
            raise serializers.ValidationError({"target": error.messages}) from None


class SubscriberEditSerializer(ApiSerializer):
    language = serializers.ChoiceField(choices=LANGUAGE_CHOICES, required=False)
    components = serializers.ListField(
        child=PublicIdField(queryset=Component.objects.all()),
        required=False,
        max_length=500,
        help_text=_("Component ids; an empty list means the whole page."),
    )
