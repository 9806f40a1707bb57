"""Issuing and revoking API tokens."""

import datetime as dt
import secrets

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import ApiToken, Subject, TokenScope
from incidents.models.api_tokens import token_digest
from incidents.roles import can_respond
from incidents.validation.instants import check_instants

from .audit import record_event

TOKEN_PREFIX = "sp_"


def check_within_issuer(
    issuer: ApiToken, *, scope: TokenScope, expires_at: dt.datetime | None
) -> dt.datetime | None:
    """A token may mint only tokens no wider and no longer-lived than itself; returns the expiry."""
    # An intake token changes component statuses: a write, so a read token cannot mint one.
    if scope != TokenScope.READ and not issuer.can_write:
        raise ValidationError({"scope": _("A token cannot issue a token of a wider scope than its own.")})
    if issuer.expires_at is None:
        return expires_at
    if expires_at is None:
        return issuer.expires_at
    if expires_at > issuer.expires_at:
        raise ValidationError({"expires_at": _("A token cannot issue a token that outlives it.")})
    return expires_at


@transaction.atomic
def issue_token(
    user: AbstractBaseUser,
    *,
    name: str,
    scope: TokenScope | str,
    actor: AbstractBaseUser | None,
    expires_at: dt.datetime | None = None,
    issuer: ApiToken | None = None,
) -> tuple[ApiToken, str]:
    """Creates a token for `user`; returns it with its secret, which is never stored or shown again.

    `issuer` is the token the request came with, if any: the new one stays within it.
    """
    scope = TokenScope(scope)
    if expires_at is not None and expires_at <= timezone.now():
        raise ValidationError({"expires_at": _("The expiry must be in the future.")})
    check_instants(planned={"expires_at": expires_at})
    if scope == TokenScope.INTAKE and not can_respond(user):
        raise ValidationError({"scope": _("Only responders and admins may issue an alert intake token.")})
    if issuer is not None:
        expires_at = check_within_issuer(issuer, scope=scope, expires_at=expires_at)
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        name=name,
        prefix=secret[:10],
        digest=token_digest(secret),
        scope=scope,
        expires_at=expires_at,
    )
    record_event(
        actor=actor,
        action="api_token.issued",
        subject_type=Subject.USER,
        subject_id=user.pk,
        subject_label=user.get_username(),
        after={
            "token": token.prefix,
            "name": name,
            "scope": token.scope,
            "expires_at": expires_at.isoformat() if expires_at else None,
        },
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
