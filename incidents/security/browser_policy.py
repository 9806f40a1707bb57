"""What browsers may do with our pages: the Content-Security-Policy and framing.

Every response carries the site's policy (settings SECURE_CSP, added by Django's
ContentSecurityPolicyMiddleware) and X-Frame-Options: DENY. A view that needs another policy
says so with one of the decorators here, outermost, so that a cached page gets it too.
"""

from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.http import HttpResponse
from django.views.decorators.clickjacking import xframe_options_exempt


def _with_policy(
    view: Callable[..., HttpResponse], changes: dict[str, list[str]]
) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapper(request, *args, **kwargs) -> HttpResponse:
        response = view(request, *args, **kwargs)
        # Read when answering, so the policy follows the settings of the moment.
        response._csp_config = {**settings.SECURE_CSP, **changes}
        return response

    return wrapper


FRAMED_ANYWHERE = {"frame-ancestors": ["*"]}


def embeddable(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Lets any site frame this view (an embeddable widget): no X-Frame-Options, and
    `frame-ancestors *` in its policy. Everything else stays as strict as elsewhere."""
    return xframe_options_exempt(_with_policy(view, FRAMED_ANYWHERE))


def allow_framing(response: HttpResponse) -> HttpResponse:
    """`embeddable` for a response made outside a view (the widget answered from the snapshot)."""
    response._csp_config = {**settings.SECURE_CSP, **FRAMED_ANYWHERE}
    response.xframe_options_exempt = True
    return response


def with_inline_styles(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """For a page we do not write ourselves that carries its own <style> block (the API docs):
    inline styles allowed, scripts still only from this site."""
    return _with_policy(view, {"style-src": ["'self'", "'unsafe-inline'"]})
