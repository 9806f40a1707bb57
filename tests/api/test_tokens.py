"""API tokens: shown once, stored hashed, revocable, and refused when malformed."""

import io

import pytest
from django.core.management import CommandError, call_command

from incidents.models import ApiToken, AuditEvent


def test_a_token_is_shown_once_and_stored_only_as_a_digest(page, client_as):
    client = client_as("viewer")

    created = client.post("/api/v1/tokens/", {"name": "grafana", "scope": "read"}, format="json")
    listed = client.get("/api/v1/tokens/")

    secret = created.json()["token"]
    assert created.status_code == 201 and len(secret) > 40
    assert "token" not in listed.json()["results"][0]
    stored = ApiToken.objects.get(name="grafana")
    assert secret not in (stored.digest, stored.prefix) and secret.startswith(stored.prefix)
    assert AuditEvent.objects.filter(action="api_token.issued").exists()


def test_a_token_authenticates_and_records_its_use(page, api, admin, token_for):
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token_for(admin)}")

    response = api.get("/api/v1/components/")

    assert response.status_code == 200
    assert ApiToken.objects.get().last_used_at is not None


def test_a_revoked_token_is_refused(page, api, admin, client_as):
    session = client_as("admin")
    created = session.post("/api/v1/tokens/", {"name": "ci", "scope": "read_write"}, format="json").json()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {created['token']}")
    assert api.get("/api/v1/incidents/").status_code == 200

    assert session.delete(f"/api/v1/tokens/{created['id']}/").status_code == 204
    response = api.get("/api/v1/incidents/")

    assert response.status_code == 401
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert ApiToken.objects.get(pk=created["id"]).revoked_at is not None


def test_a_user_cannot_revoke_someone_elses_token(page, client_as, admin, token_for):
    token_for(admin)
    other = ApiToken.objects.get()

    response = client_as("responder").delete(f"/api/v1/tokens/{other.pk}/")

    assert response.status_code == 404
    assert ApiToken.objects.get().revoked_at is None


@pytest.mark.parametrize(
    "header",
    [
        "Bearer",
        "Bearer a b",
        "Bearer sp_not-a-real-token",
        "Token ",
        "Bearer \u00e9\u00e9",
        "bearer " + "x" * 5000,
    ],
)
def test_malformed_or_unknown_tokens_are_refused(page, api, header):
    api.credentials(HTTP_AUTHORIZATION=header.encode("utf-8").decode("latin-1"))

    response = api.get("/api/v1/incidents/")

    assert response.status_code == 401
    assert "detail" in response.json()


def test_a_deactivated_users_token_stops_working(page, api, responder, token_for):
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token_for(responder)}")
    responder.is_active = False
    responder.save()

    assert api.get("/api/v1/incidents/").status_code == 401


def test_a_token_can_be_issued_from_the_command_line(page, api, responder):
    out = io.StringIO()

    call_command("create_api_token", "rita", "--scope", "read_write", stdout=out)

    secret = out.getvalue().strip().splitlines()[-1]
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    created = api.post(
        "/api/v1/incidents/", {"title": "From CI", "language": "en", "body": "x"}, format="json"
    )
    assert created.status_code == 201
    with pytest.raises(CommandError):
        call_command("create_api_token", "nobody")
