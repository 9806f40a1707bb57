"""The site's icon (/favicon.svg in the current status's colour, or ?status='s) and robots.txt."""

from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from incidents import selectors
from incidents.public.favicon import COLOURS, favicon_svg

# A named indicator never changes its picture; the current one may change any minute.
NAMED_MAX_AGE = 7 * 24 * 3600
CURRENT_MAX_AGE = 60


@require_safe
def favicon(request):
    named = request.GET.get("status", "")
    indicator = named if named in COLOURS else selectors.current_indicator().value
    response = HttpResponse(favicon_svg(indicator), content_type="image/svg+xml")
    patch_cache_control(response, public=True, max_age=NAMED_MAX_AGE if named in COLOURS else CURRENT_MAX_AGE)
    return response


@require_safe
def favicon_ico(request):
    return HttpResponsePermanentRedirect(reverse("favicon"))


# Crawlers may read the public pages; the editor, the admin and our own API are not for them.
ROBOTS = "User-agent: *\nDisallow: /editor/\nDisallow: /admin/\nDisallow: /api/v1/\nAllow: /\n"


@require_safe
def robots(request):
    response = HttpResponse(ROBOTS, content_type="text/plain; charset=utf-8")
    patch_cache_control(response, public=True, max_age=NAMED_MAX_AGE)
    return response
