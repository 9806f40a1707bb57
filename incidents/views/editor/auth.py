"""Logging in and out of the editor, behind the login protection (incidents.security)."""

from django.contrib.auth import login, logout
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from incidents.security.login_protection import attempt_allowed, forget_attempts, refusal_message


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
        username = request.POST.get("username", "")
        if not attempt_allowed(request, username):
            # Refused before the password is checked, so guessing learns nothing while locked.
            form = AuthenticationForm(request, initial={"username": username})
            refusal, status = refusal_message(), 429
        elif form.is_valid():
            forget_attempts(request, username)
            login(request, form.get_user())
            return redirect(_next_url(request) or "editor:overview")
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
