"""Error pages: JSON under /api/, where clients read JSON, and the site's HTML pages (404, 500)
elsewhere."""

from django.http import HttpResponseServerError, JsonResponse
from django.template import loader
from django.utils.translation import gettext as _
from django.views import defaults

API_PREFIX = "/api/"


def page_not_found(request, exception):
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": _("Not found.")}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    """The site's 500 page in the reader's language, rendered without the database or any
    context processor (the database may be what failed)."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"detail": _("Server error.")}, status=500)
    try:
        html = loader.get_template("500.html").render({"request_path": request.path})
    except Exception:  # whatever broke the page may break its frame too: answer plainly
        html = "<!doctype html><title>Server error</title><h1>Server error (500)</h1>"
    return HttpResponseServerError(html)
