"""Login protection for every password form: the editor, /admin/ and the API's session login.

Each attempt is counted on the atomic counters *before* the password is checked, and refused
once over the limit: with check-then-count, a burst of concurrent guesses would all be checked
before the first failure was recorded. Counted per (client address, user name) and per client
address; a successful login starts its user name afresh and takes its attempt back from the
address, so the address counts only failures: an office behind one NAT address logs in as often
as it likes, and its colleagues' correct logins never lock anyone out.
"""

from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.shortcuts import render
from django.utils.translation import gettext as _

from .client_address import client_address
from .counters import count_hit, forget, take_back_hit

# One address trying many user names is stopped too, at this multiple of the per-name limit.
ADDRESS_LIMIT_FACTOR = 4


def _name_key(request, username: str) -> str:
    return f"{client_address(request)}\n{username.strip().lower()}"


def attempt_allowed(request, username: str) -> bool:
    """Counts this login attempt and says whether its password may be checked."""
    window, limit = settings.LOGIN_LOCKOUT_SECONDS, settings.LOGIN_MAX_FAILURES
    per_name = count_hit("login-name", _name_key(request, username), window_seconds=window)
    per_address = count_hit("login-address", client_address(request), window_seconds=window)
    return per_name <= limit and per_address <= limit * ADDRESS_LIMIT_FACTOR


def forget_attempts(request, username: str) -> None:
    """After a successful login: earlier failures of this name from this client no longer count,
    nor does this attempt against the client's address."""
    forget("login-name", _name_key(request, username))
    take_back_hit("login-address", client_address(request))


def refusal_message() -> str:
    return _("Too many failed attempts. Wait a few minutes and try again.")


def refused_form(request, form_class=AuthenticationForm) -> AuthenticationForm:
    """An unbound login form carrying the refusal: binding it would check the password."""
    form = form_class(request, initial={"username": request.POST.get("username", "")})
    form.full_clean()
    form.cleaned_data = {}  # what add_error expects of a form it did not clean
    form.add_error(None, refusal_message())
    return form


def protect_login(view: Callable, *, template_name: str, context: Callable | None = None) -> Callable:
    """Wraps a login view (Django's LoginView and the admin's): attempts over the limit get
    `template_name` with the refusal on the form, and 429, before any password is checked."""

    @wraps(view)
    def protected(request, *args, **kwargs):
        if request.method != "POST":
            return view(request, *args, **kwargs)
        username = request.POST.get("username", "")
        if not attempt_allowed(request, username):
            extra = context(request) if context else {}
            return render(request, template_name, {**extra, "form": refused_form(request)}, status=429)
        response = view(request, *args, **kwargs)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and user.get_username() == username.strip():
            forget_attempts(request, username)
        return response

    return protected
