"""Issuing and revoking API tokens; a token issued with another one is revoked with it."""

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

    `issuer` is the token the request came with, if any: the new one stays within it, and is
    revoked with it.
    """
    scope = TokenScope(scope)
    if expires_at is not None and expires_at <= timezone.now():
        raise ValidationError({"expires_at": _("The expiry must be in the future.")})
    check_instants(planned={"expires_at": expires_at})
    if scope == TokenScope.INTAKE and not can_respond(user):
        raise ValidationError({"scope": _("Only responders and admins may issue an alert intake token.")})
    if issuer is not None:
        # Locked, so a revocation running meanwhile either sees the new token or is seen here.
        issuer = ApiToken.objects.select_for_update().get(pk=issuer.pk)
        if not issuer.is_active:
            raise ValidationError(_("The token this request came with has been revoked."))
        expires_at = check_within_issuer(issuer, scope=scope, expires_at=expires_at)
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        name=name,
        prefix=secret[:10],
        digest=token_digest(secret),
        scope=scope,
        expires_at=expires_at,
        issued_by=issuer,
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
    """Makes a token unusable from now on, with every token issued with it and theirs (idempotent)."""
    locked = ApiToken.objects.select_for_update().get(pk=token.pk)
    now = timezone.now()
    _revoke(locked, at=now, actor=actor, with_issuer=None)
    issuers = {locked.pk: locked}
    while issuers:
        # Locked like the token itself: a token being issued with one of these waits, then sees it revoked.
        issued = ApiToken.objects.select_for_update(of=("self",)).select_related("user")
        issued = list(issued.filter(issued_by__in=issuers).order_by("pk"))
        for child in issued:
            _revoke(child, at=now, actor=actor, with_issuer=issuers[child.issued_by_id])
        issuers = {child.pk: child for child in issued}
    return locked


def _revoke(
    token: ApiToken, *, at: dt.datetime, actor: AbstractBaseUser | None, with_issuer: ApiToken | None
) -> None:
    if token.revoked_at is not None:
        return
    token.revoked_at = at
    token.save(update_fields=["revoked_at"])
    after = {"token": token.prefix, "revoked": True}
    if with_issuer is not None:
        after["with_issuer"] = with_issuer.prefix
    record_event(
        actor=actor,
        action="api_token.revoked",
        subject_type=Subject.USER,
        subject_id=token.user_id,
        subject_label=token.user.get_username(),
        before={"token": token.prefix, "revoked": False},
        after=after,
    )
