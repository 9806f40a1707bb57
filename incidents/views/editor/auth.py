"""Logging in and out of the editor, with a cache-based throttle on repeated failures."""

import hashlib

from django.conf import settings
from django.contrib.auth import login, logout
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from .access import in_editor_language

# One address trying many user names is stopped too, at this multiple of the per-name limit.
ADDRESS_LIMIT_FACTOR = 4


def _throttle_keys(request, username: str) -> tuple[str, str]:
    # Hashed so any typed user name makes a safe cache key (no spaces, bounded length).
    address = request.META.get("REMOTE_ADDR", "")
    name = hashlib.sha256(username.strip().lower().encode()).hexdigest()[:32]
    return f"editor-login-failures:{address}:{name}", f"editor-login-failures:{address}"


def _locked_out(keys: tuple[str, str]) -> bool:
    counts = cache.get_many(keys)
    per_name, per_address = counts.get(keys[0], 0), counts.get(keys[1], 0)
    limit = settings.EDITOR_LOGIN_MAX_FAILURES
    return per_name >= limit or per_address >= limit * ADDRESS_LIMIT_FACTOR


def _record_failure(key: str) -> None:
    # add() then incr() keeps the window from sliding: it starts at the first failure.
    if not cache.add(key, 1, timeout=settings.EDITOR_LOGIN_LOCKOUT_SECONDS):
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=settings.EDITOR_LOGIN_LOCKOUT_SECONDS)


def _next_url(request) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


@sensitive_post_parameters("password")
@csrf_protect
@never_cache
@in_editor_language
def login_view(request):
    form = AuthenticationForm(request, data=request.POST or None)
    status, refusal = 200, ""
    if request.method == "POST":
        keys = _throttle_keys(request, request.POST.get("username", ""))
        if _locked_out(keys):
            # Refused before the password is checked, so guessing learns nothing while locked.
            form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
            refusal = _("Too many failed attempts. Wait a few minutes and try again.")
            status = 429
        elif form.is_valid():
            cache.delete(keys[0])
            login(request, form.get_user())
            return redirect(_next_url(request) or "editor:overview")
        else:
            for key in keys:
                _record_failure(key)
    return render(
        request,
        "editor/login.html",
        {"form": form, "next": _next_url(request), "refusal": refusal},
        status=status,
    )


@require_POST
def logout_view(request):
    logout(request)
    return redirect("editor:login")
