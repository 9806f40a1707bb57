"""Who may open which editor page, and the conflict page shown instead of a silent overwrite."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers

from incidents import roles
from incidents.services.notifications import KickOutcome, watch_notifications


def _requires(check):
    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path(), reverse("editor:login"))
            if not check(request.user):
                raise PermissionDenied
            with watch_notifications() as kicks:
                response = view(request, *args, **kwargs)
            if kicks.broker_unreachable:
                # The update is saved and its notifications wait in the outbox for the sweep.
                messages.warning(request, KickOutcome.BROKER_UNREACHABLE.label)
            # Drafts and internal items must not linger in shared or browser caches.
            add_never_cache_headers(response)
            return response

        return wrapped

    return decorator


viewer_required = _requires(roles.can_view_drafts)
responder_required = _requires(roles.can_respond)
admin_required = _requires(roles.can_administer)


def conflict(request, *, what: str, rows: list, retry_url: str, retry_data: dict, back_url: str):
    """The 409 page: both versions side by side, rows of (label, mine, theirs), and a way to keep either."""
    return render(
        request,
        "editor/conflict.html",
        {
            "what": what,
            "rows": rows,
            "retry_url": retry_url,
            "retry_data": retry_data,
            "back_url": back_url,
        },
        status=409,
    )
