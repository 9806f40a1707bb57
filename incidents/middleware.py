"""The reader's language on URLs without a language prefix.

Django's LocaleMiddleware shows unprefixed URLs in the default language when
`prefix_default_language=False`. Our pages promise: the prefix when there is one
(`/ru/…`), otherwise the language the reader chose (the cookie set by the switcher),
otherwise the browser's Accept-Language. This middleware applies that rule once the URL
is resolved (resolving first, because i18n_patterns resolve by the active language).
"""

from django.utils import translation
from django.utils.cache import patch_vary_headers


class ReaderLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if getattr(request, "reader_language_applied", False):
            patch_vary_headers(response, ("Accept-Language", "Cookie"))
            response.headers.setdefault("Content-Language", translation.get_language())
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if translation.get_language_from_path(request.path_info) is None:
            translation.activate(translation.get_language_from_request(request, check_path=False))
            request.LANGUAGE_CODE = translation.get_language()
            request.reader_language_applied = True
        return None
