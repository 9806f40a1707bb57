"""What every resource of /api/v1/ shares: roles, body limit, filters, ETags, service writes."""

from django.conf import settings
from drf_spectacular.utils import OpenApiResponse
from rest_framework import mixins, status, viewsets
from rest_framework.filters import OrderingFilter
from rest_framework.response import Response

from incidents.validation.request_bodies import body_too_large

from .concurrency import check_if_match, check_version, etag_for
from .errors import PayloadTooLarge
from .filters import ListFilters
from .permissions import StaffRole

ERRORS = {
    400: OpenApiResponse(description="Invalid request: {field: [messages]}"),
    401: OpenApiResponse(description="Not authenticated"),
    403: OpenApiResponse(description="Role or token scope does not allow this"),
}
STALE = {
    409: OpenApiResponse(description="The `version` sent is stale"),
    412: OpenApiResponse(description="If-Match does not match the current ETag"),
}


class ApiViewSet(viewsets.GenericViewSet):
    """Role permissions, body size limit, validated filters and ordering for every resource."""

    permission_classes = [StaffRole]
    filter_backends = [ListFilters, OrderingFilter]

    def initial(self, request, *args, **kwargs):
        # Refused before authentication or parsing, so an oversized body is never read.
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = self.body_limit()
        if length > limit:
            raise PayloadTooLarge(body_too_large(limit))
        super().initial(request, *args, **kwargs)

    def body_limit(self) -> int:
        """The largest body this request may send, in bytes."""
        return settings.API_MAX_BODY_BYTES

    def retrieve(self, request, *args, **kwargs):
        instance = self.get_object()
        return Response(self.get_serializer(instance).data, headers={"ETag": etag_for(instance)})

    # Request bodies per action where they differ from the response (also the browsable API's forms).
    request_serializers: dict = {}

    def get_serializer_class(self):
        return self.request_serializers.get(getattr(self, "action", None), self.serializer_class)

    def respond(self, instance, *, serializer_class=None, status_code=status.HTTP_200_OK):
        serializer_class = serializer_class or self.serializer_class
        data = serializer_class(instance, context=self.get_serializer_context()).data
        return Response(data, status=status_code, headers={"ETag": etag_for(instance)})

    def valid_body(self, serializer_class):
        """The request body, validated by `serializer_class` (a 400 naming the fields otherwise)."""
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer

    def checked_for_write(self, request, version: int | None):
        """This request's object once If-Match (412) and the body's `version` (409) agree with
        it; the command given its version refuses the write if it changes before its row lock."""
        current = self.get_object()
        check_if_match(request, current)
        check_version(current, version)
        return current


class ByPublicId:
    """Resources addressed by their public id as `{id}` in the URL."""

    lookup_field = "public_id"
    lookup_url_kwarg = "id"
    lookup_value_regex = "[0-9a-z]+"  # a malformed id is a 404 from the router, before any query


class ServiceCrudViewSet(mixins.ListModelMixin, ApiViewSet):
    """Create and edit through a serializer whose save() calls the service; If-Match honoured."""

    http_method_names = ["get", "post", "patch", "head", "options"]

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        instance = serializer.save()
        return self.respond(instance, status_code=status.HTTP_201_CREATED)

    def partial_update(self, request, *args, **kwargs):
        current = self.get_object()
        check_if_match(request, current)
        serializer = self.get_serializer(current, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        return self.respond(serializer.save())
