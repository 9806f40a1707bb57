"""API token authentication: `Authorization: Bearer <token>` (or `Token <token>`)."""

import datetime as dt

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from incidents.models import ApiToken
from incidents.models.api_tokens import token_digest

KEYWORDS = {b"bearer", b"token"}
# Recording every use would turn each read into a write; a minute's precision is enough.
LAST_USED_PRECISION = dt.timedelta(minutes=1)


class TokenAuthentication(authentication.BaseAuthentication):
    def authenticate(self, request):
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() not in KEYWORDS:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                _("Malformed Authorization header: expected 'Bearer <token>'.")
            )
        try:
            secret = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        token = ApiToken.objects.select_related("user").filter(digest=token_digest(secret)).first()
        if token is None or not token.is_active or not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("Invalid or revoked token."))
        if token.has_expired:
            raise exceptions.AuthenticationFailed(_("This token has expired: issue a new one."))
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_PRECISION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token

    def authenticate_header(self, request):
        return 'Bearer realm="api"'


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = TokenAuthentication
    name = "apiToken"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "An API token (Authorization: Bearer …)."}
