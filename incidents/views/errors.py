"""Error pages: JSON under /api/, where clients read JSON, and the site's HTML page elsewhere."""

from django.http import JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults

API_PREFIX = "/api/"


def page_not_found(request, exception):
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": _("Not found.")}, status=404)
    return defaults.page_not_found(request, exception)
