"""The language and time zone a request is answered in, set once before its view.

Language: what the URL names (a `/ru/…` prefix, or `lang` on embeds and the API), else the
reader's cookie, then Accept-Language. Set once the URL is resolved, because i18n_patterns
resolve by the active language. The API and the admin keep UTC.
"""

from django.conf import settings
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers

from incidents.public.snapshot_embeds import is_embed
from incidents.translation import known_or_default

UTC_PREFIXES = ("/api/", "/admin/", "/probes/")


def named_language(request) -> str | None:
    """The language the URL itself names, if it names one."""
    path = request.path_info
    if is_embed(path):
        return known_or_default(request.GET.get("lang", ""))
    if path.startswith("/api/") and request.GET.get("lang"):
        return known_or_default(request.GET["lang"])
    return translation.get_language_from_path(path)


def request_language(request) -> str:
    return named_language(request) or translation.get_language_from_request(request, check_path=False)


class RequestContextMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            response = self.get_response(request)
        finally:
            timezone.deactivate()
        if getattr(request, "reader_language_applied", False):
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        named = named_language(request)
        request.LANGUAGE_CODE = named or translation.get_language_from_request(request, check_path=False)
        request.reader_language_applied = named is None
        translation.activate(request.LANGUAGE_CODE)
        if not request.path_info.startswith(UTC_PREFIXES):
            timezone.activate(settings.STATUS_TIME_ZONE)
        return None
