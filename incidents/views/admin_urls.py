"""Django's admin (mounted at /admin/), its login behind the same login protection as the editor."""

from django.contrib import admin
from django.urls import path

from incidents.security.login_views import admin_login

urlpatterns = [
    path("login/", admin_login),
    path("", admin.site.urls),
]
