"""Serializers of subscribers (admins only). Manage tokens and webhook secrets never leave."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from incidents.models import Component, Incident, Subscriber
from incidents.outbound.guard import check_url
from incidents.services.subscriptions import check_email, check_no_line_breaks

from .serializers import LANGUAGE_CHOICES, PublicIdField
from .strict import ApiModelSerializer, ApiSerializer


def django_check(check, value):
    try:
        check(value)
    except DjangoValidationError as error:
        raise serializers.ValidationError(error.messages) from None
    return value


class SubscriberSerializer(ApiModelSerializer):
    id = serializers.CharField(source="public_id", read_only=True)
    endpoint_url = serializers.CharField(read_only=True, help_text=_("Empty for email subscribers."))
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


class SubscriberCreateSerializer(ApiSerializer):
    email = serializers.CharField(
        max_length=254, help_text=_("The address notified (or, for a webhook, the contact who confirms it).")
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
            "the admin has consent for as confirmed at once, and sends no mail."
        ),
    )

    def validate_email(self, value):
        return django_check(check_email, value.strip())

    def validate_endpoint_url(self, value):
        if value:
            django_check(check_no_line_breaks, value)
            django_check(check_url, value)
        return value


class SubscriberEditSerializer(ApiSerializer):
    language = serializers.ChoiceField(choices=LANGUAGE_CHOICES, required=False)
    components = serializers.ListField(
        child=PublicIdField(queryset=Component.objects.all()),
        required=False,
        max_length=500,
        help_text=_("Component ids; an empty list means the whole page."),
    )
