"""API tokens: per user, shown once, stored as a digest, revocable, read or read-write, may expire;
a token issued with another one through the API is revoked with it."""

import hashlib

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class TokenScope(models.TextChoices):
    READ = "read", _("Read")
    READ_WRITE = "read_write", _("Read and write")
    # Only for Alertmanager and Grafana: sends alerts to /api/v1/intake/ and nothing else.
    INTAKE = "intake", _("Alert intake only")


def token_digest(token: str) -> str:
    # Tokens carry 256 random bits, so a fast digest is enough: there is nothing to brute-force.
    return hashlib.sha256(token.encode()).hexdigest()


class ApiToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100, help_text=_("What the token is for, to recognise it later."))
    # The first characters of the token, shown in lists so a user can tell tokens apart.
    prefix = models.CharField(max_length=12)
    digest = models.CharField(max_length=64, unique=True)
    scope = models.CharField(max_length=16, choices=TokenScope.choices, default=TokenScope.READ)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("After this instant the token is refused; empty: it never expires."),
    )
    # The token whose authority issued this one (through the API); revoking it revokes this one,
    # and so on down the line, so a leaked token cannot leave a working copy of itself behind.
    issued_by = models.ForeignKey(
        "self", null=True, blank=True, editable=False, on_delete=models.CASCADE, related_name="issued"
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    @property
    def has_expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= timezone.now()

    @property
    def can_write(self) -> bool:
        return self.scope == TokenScope.READ_WRITE
