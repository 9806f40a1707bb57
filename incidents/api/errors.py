"""How the API reports failures: field errors as {"field": ["message"]}, never a 500 for bad input."""

from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, status
from rest_framework.fields import get_error_detail
from rest_framework.views import exception_handler as drf_exception_handler

from incidents.lifecycle.updates import TransitionRefused
from incidents.validation.concurrency import ConcurrentEdit


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = _("The request body is too large.")
    default_code = "payload_too_large"


class PreconditionFailed(exceptions.APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = _("The resource was changed since you read it (If-Match does not match its ETag).")
    default_code = "precondition_failed"


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = _("The resource was changed by someone else; reload it and try again.")
    default_code = "conflict"


def exception_handler(exc, context):
    """Maps domain and Django errors to DRF's, so every failure has a JSON body and a 4xx status."""
    if isinstance(exc, TransitionRefused):
        exc = Conflict(get_error_detail(exc))
    elif isinstance(exc, DjangoValidationError):
        detail = get_error_detail(exc)
        if not isinstance(detail, dict):
            detail = {"non_field_errors": detail}
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, ConcurrentEdit):
        exc = Conflict()
    elif isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    elif isinstance(exc, IntegrityError):
        # A unique value taken by a concurrent request between validation and the write.
        exc = Conflict(_("This conflicts with an existing object."))
    response = drf_exception_handler(exc, context)
    if (
        response is not None
        and isinstance(exc, exceptions.ValidationError)
        and isinstance(response.data, list)
    ):
        response.data = {"non_field_errors": response.data}
    return response
