"""The admin's login and the API's session login (Django REST framework's), protected.

The API's login lives outside the `api` namespace: DRF's templates reverse `rest_framework:login`.
"""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.urls import path
from django.utils.translation import gettext as _

from .login_protection import protect_login


def _admin_context(request) -> dict:
    return {
        **admin.site.each_context(request),
        "title": _("Log in"),
        "subtitle": None,
        "app_path": request.get_full_path(),
        "username": request.user.get_username(),
    }


admin_login = protect_login(admin.site.login, template_name="admin/login.html", context=_admin_context)

api_login = protect_login(
    auth_views.LoginView.as_view(
        template_name="rest_framework/login.html", authentication_form=AuthenticationForm
    ),
    template_name="rest_framework/login.html",
)

api_login_patterns = (
    [
        path("login/", api_login, name="login"),
        path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    ],
    "rest_framework",
)
