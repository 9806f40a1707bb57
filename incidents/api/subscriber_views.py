"""Our REST API (/api/v1/): subscribers, for admins only (not even viewers read addresses)."""

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status
from rest_framework.response import Response

from incidents.models import Subscriber
from incidents.roles import can_administer
from incidents.services.subscriber_admin import add_subscriber, change_subscriber, delete_subscriber

from . import filters
from . import subscriber_serializers as s
from .base import ERRORS, STALE, ApiViewSet, ByPublicId
from .concurrency import check_if_match

NOT_FOUND = {404: OpenApiResponse(description="No such subscriber")}


class SubscriberViewSet(ByPublicId, mixins.ListModelMixin, ApiViewSet):
    """Email and webhook subscribers. Created through the same subscription service as the public
    form, so double opt-in holds unless an admin creates one with `confirmed: true`."""

    queryset = Subscriber.objects.select_related("incident").prefetch_related("components")
    serializer_class = s.SubscriberSerializer
    read_permission = staticmethod(can_administer)
    write_permission = staticmethod(can_administer)
    request_serializers = {
        "create": s.SubscriberCreateSerializer,
        "partial_update": s.SubscriberEditSerializer,
    }
    ordering_fields = ["created_at", "confirmed_at", "email"]
    ordering = ["-created_at", "-id"]
    filterset_class = filters.SubscriberFilters
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    @extend_schema(
        request=s.SubscriberCreateSerializer,
        responses={201: s.SubscriberSerializer, **ERRORS},
        description=str(s.SubscriberCreateSerializer().fields["confirmed"].help_text),
    )
    def create(self, request, *args, **kwargs):
        """Subscribes an address (or a webhook) through the subscription service."""
        serializer = self.valid_body(s.SubscriberCreateSerializer)
        subscriber = add_subscriber(actor=request.user, **serializer.validated_data)
        return self.respond(subscriber, status_code=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.SubscriberEditSerializer,
        responses={200: s.SubscriberSerializer, **ERRORS, **NOT_FOUND, 412: STALE[412]},
    )
    def partial_update(self, request, *args, **kwargs):
        """Changes the language and/or the components followed."""
        serializer = self.valid_body(s.SubscriberEditSerializer)
        subscriber = change_subscriber(
            self.get_object(),
            actor=request.user,
            check=lambda current: check_if_match(request, current),
            **serializer.validated_data,
        )
        return self.respond(Subscriber.objects.get(pk=subscriber.pk))

    @extend_schema(responses={204: None, **ERRORS, **NOT_FOUND, 412: STALE[412]})
    def destroy(self, request, *args, **kwargs):
        """Deletes the subscriber and its pending deliveries."""
        delete_subscriber(
            self.get_object(), actor=request.user, check=lambda current: check_if_match(request, current)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
