"""Logging in and out of the editor, with a cache-based throttle on repeated failures."""

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


def _throttle_key(request, username: str) -> str:
    address = request.META.get("REMOTE_ADDR", "")
    return f"editor-login-failures:{address}:{username.strip().lower()[:150]}"


def _failures(key: str) -> int:
    return cache.get(key, 0)


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
def login_view(request):
    form = AuthenticationForm(request, data=request.POST or None)
    status, refusal = 200, ""
    if request.method == "POST":
        key = _throttle_key(request, request.POST.get("username", ""))
        if _failures(key) >= settings.EDITOR_LOGIN_MAX_FAILURES:
            # Refused before the password is checked, so guessing learns nothing while locked.
            form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
            refusal = _("Too many failed attempts. Wait a few minutes and try again.")
            status = 429
        elif form.is_valid():
            cache.delete(key)
            login(request, form.get_user())
            return redirect(_next_url(request) or "editor:overview")
        else:
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
