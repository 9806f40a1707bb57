"""A leaked token that mints tokens with its own authority: revoking it revokes every token it
minted, and theirs, whether the owner revokes it through the API or in the editor."""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from rest_framework.test import APIClient

from incidents.models import ApiToken, AuditEvent, TokenScope
from incidents.services.api_tokens import issue_token, revoke_token

pytestmark = pytest.mark.django_db


def bearer(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def mint(secret: str, name: str) -> dict:
    """What the holder of `secret` gets by creating a token with it."""
    response = bearer(secret).post("/api/v1/tokens/", {"name": name, "scope": "read_write"}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def works(secret: str) -> bool:
    status = bearer(secret).get("/api/v1/incidents/").status_code
    assert status in (200, 401), status
    return status == 200


@pytest.fixture
def leaked(admin):
    token, secret = issue_token(admin, name="ci", scope=TokenScope.READ_WRITE, actor=admin)
    return token, secret


@pytest.fixture
def owner(admin) -> APIClient:
    client = APIClient()
    client.force_login(admin)
    return client


def test_a_token_minted_by_a_leaked_token_is_refused_once_the_leaked_one_is_revoked(leaked, owner):
    token, secret = leaked
    child = mint(secret, "copy")
    assert works(child["token"])

    assert owner.delete(f"/api/v1/tokens/{token.pk}/").status_code == 204

    assert not works(secret)
    assert not works(child["token"])


def test_a_grandchild_token_is_refused_once_the_first_one_is_revoked(leaked, owner):
    token, secret = leaked
    child = mint(secret, "copy")
    grandchild = mint(child["token"], "copy of the copy")

    owner.delete(f"/api/v1/tokens/{token.pk}/")

    assert not works(grandchild["token"])
    assert not ApiToken.objects.filter(revoked_at__isnull=True).exists()


def test_revoking_the_leaked_token_in_the_editor_revokes_what_it_minted(admin, leaked):
    token, secret = leaked
    child = mint(secret, "copy")
    editor = Client()
    editor.force_login(admin)

    assert editor.post(f"/editor/tokens/{token.pk}/revoke/").status_code == 302

    assert not works(child["token"])


def test_the_token_list_names_the_issuer_and_revoking_a_child_spares_its_issuer(leaked, owner):
    token, secret = leaked
    child = mint(secret, "copy")

    listed = {row["name"]: row for row in owner.get("/api/v1/tokens/").json()["results"]}
    owner.delete(f"/api/v1/tokens/{child['id']}/")

    assert listed["copy"]["issued_by"] == token.pk
    assert listed["ci"]["issued_by"] is None
    assert works(secret)
    assert not works(child["token"])


def test_each_revocation_down_the_line_is_in_the_audit_trail(leaked, owner):
    token, secret = leaked
    child = mint(secret, "copy")
    grandchild = mint(child["token"], "copy of the copy")

    owner.delete(f"/api/v1/tokens/{token.pk}/")

    revoked = {
        event.after["token"]: event.after.get("with_issuer")
        for event in AuditEvent.objects.filter(action="api_token.revoked")
    }
    assert revoked == {
        token.prefix: None,
        child["prefix"]: token.prefix,
        grandchild["prefix"]: child["prefix"],
    }


def test_a_token_revoked_while_its_request_runs_mints_nothing(admin, leaked):
    """The request authenticated just before the revocation committed: the issuer is read again,
    locked, when the new token is written."""
    token, _secret = leaked
    authenticated_as = ApiToken.objects.get(pk=token.pk)
    revoke_token(token, actor=admin)

    with pytest.raises(ValidationError):
        issue_token(admin, name="late copy", scope=TokenScope.READ, actor=admin, issuer=authenticated_as)

    assert not ApiToken.objects.filter(name="late copy").exists()
