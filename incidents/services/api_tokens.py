"""Issuing and revoking API tokens."""

import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from incidents.models import ApiToken, Subject, TokenScope
from incidents.models.api_tokens import token_digest

from .audit import record_event

TOKEN_PREFIX = "sp_"


@transaction.atomic
def issue_token(
    user: AbstractBaseUser, *, name: str, scope: TokenScope | str, actor: AbstractBaseUser | None
) -> tuple[ApiToken, str]:
    """Creates a token for `user`; returns it with its secret, which is never stored or shown again."""
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, prefix=secret[:10], digest=token_digest(secret), scope=TokenScope(scope)
    )
    record_event(
        actor=actor,
        action="api_token.issued",
        subject_type=Subject.USER,
        subject_id=user.pk,
        subject_label=user.get_username(),
        after={"token": token.prefix, "name": name, "scope": token.scope},
    )
    return token, secret


@transaction.atomic
def revoke_token(token: ApiToken, *, actor: AbstractBaseUser | None) -> ApiToken:
    """Makes a token unusable from now on (idempotent)."""
    locked = ApiToken.objects.select_for_update().get(pk=token.pk)
    if locked.revoked_at is None:
        locked.revoked_at = timezone.now()
        locked.save(update_fields=["revoked_at"])
        record_event(
            actor=actor,
            action="api_token.revoked",
            subject_type=Subject.USER,
            subject_id=locked.user_id,
            subject_label=locked.user.get_username(),
            before={"token": locked.prefix, "revoked": False},
            after={"token": locked.prefix, "revoked": True},
        )
    return locked
