"""Logging in and out of the editor, behind the login protection (incidents.security)."""

from django.contrib.auth.views import LoginView, LogoutView

from incidents.security.login_protection import protect_login

login_view = protect_login(
    LoginView.as_view(template_name="editor/login.html", next_page="editor:overview"),
    template_name="editor/login.html",
    # A refused attempt keeps where it was going; LoginView checks the target when it is used.
    context=lambda request: {"next": LoginView().get_redirect_url(request)},
)

logout_view = LogoutView.as_view(next_page="editor:login")
