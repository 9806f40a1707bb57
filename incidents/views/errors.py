"""Error answers: the site's HTML pages (404, 500), and under /api/ DRF's `{"detail": "…"}` shape
for every failure Django answers rather than DRF (unrouted URLs, refused methods, unreadable
bodies, DEBUG pages). The browsable API's login pages are for people and stay HTML.
"""

from http import HTTPStatus

from django.http import HttpResponseServerError, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response

from incidents.api.errors import PayloadTooLarge

API_PREFIX = "/api/"
API_LOGIN_PREFIX = "/api/v1/auth/"
# Headers of Django's answer that still hold for the JSON one.
KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate", "Vary", "Content-Language")
DRF_EXCEPTIONS = {
    400: exceptions.ParseError,
    401: exceptions.NotAuthenticated,
    403: exceptions.PermissionDenied,
    406: exceptions.NotAcceptable,
    413: PayloadTooLarge,
}


def is_api(request) -> bool:
    return request.path.startswith(API_PREFIX)


def api_error(request, *, status: int) -> JsonResponse:
    """The API's error body for a failure Django answers rather than DRF."""
    return JsonResponse({"detail": _error_detail(request, status=status)}, status=status)


def _error_detail(request, *, status: int) -> str:
    # DRF's messages where it has one for the status, so both answer alike (and translated).
    if status == 404:
        return _("Not found.")
    if status == 405:
        return str(exceptions.MethodNotAllowed(request.method).detail)
    if status >= 500:
        return _("Server error.")
    drf_exception = DRF_EXCEPTIONS.get(status)
    return str(drf_exception.default_detail) if drf_exception else HTTPStatus(status).phrase


class ApiErrorMiddleware:
    """Gives every error answer under /api/ that is not JSON already the API's JSON body."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            response.status_code < 400
            or response.streaming
            or isinstance(response, Response)  # DRF's, in the format the client negotiated
            or not is_api(request)
            or request.path.startswith(API_LOGIN_PREFIX)
        ):
            return response
        media_type = response.get("Content-Type", "").partition(";")[0].strip()
        if media_type == "application/json" or media_type.endswith("+json"):
            return response
        answer = api_error(request, status=response.status_code)
        for header in KEPT_HEADERS:
            if header in response:
                answer[header] = response[header]
        return answer


def page_not_found(request, exception):
    if is_api(request):
        return api_error(request, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    """The 500 page, rendered without the database or context processors (they may be what failed)."""
    if is_api(request):
        return api_error(request, status=500)
    try:
        html = loader.get_template("500.html").render({"request_path": request.path})
    except Exception:  # whatever broke the page may break its frame too: answer plainly
        html = "<!doctype html><title>Server error</title><h1>Server error (500)</h1>"
    return HttpResponseServerError(html)
