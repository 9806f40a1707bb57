"""API tokens may expire, and a token never mints one wider or longer-lived than itself."""

import datetime as dt

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from incidents.models import ApiToken, TokenScope
from incidents.services.api_tokens import issue_token


def bearer(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def token(user, *, scope=TokenScope.READ_WRITE, expires_in: dt.timedelta | None = None) -> str:
    expires_at = timezone.now() + expires_in if expires_in else None
    return issue_token(user, name="ci", scope=scope, actor=user, expires_at=expires_at)[1]


@pytest.mark.django_db
def test_an_expired_token_is_refused_with_a_clear_message(admin):
    secret = token(admin, expires_in=dt.timedelta(hours=1))
    assert bearer(secret).get("/api/v1/incidents/").status_code == 200
    ApiToken.objects.update(expires_at=timezone.now() - dt.timedelta(seconds=1))

    response = bearer(secret).get("/api/v1/incidents/")

    assert response.status_code == 401
    assert "expired" in response.json()["detail"]


@pytest.mark.django_db
def test_a_token_is_issued_with_an_expiry_and_lists_it(admin):
    client = APIClient()
    client.force_login(admin)
    expires_at = (timezone.now() + dt.timedelta(days=30)).replace(microsecond=0)

    created = client.post(
        "/api/v1/tokens/", {"name": "ci", "expires_at": expires_at.isoformat()}, format="json"
    )

    assert created.status_code == 201, created.content
    listed = client.get("/api/v1/tokens/").json()["results"][0]
    assert dt.datetime.fromisoformat(listed["expires_at"]) == expires_at


@pytest.mark.django_db
def test_an_expiry_in_the_past_is_refused(admin):
    client = APIClient()
    client.force_login(admin)

    response = client.post(
        "/api/v1/tokens/", {"name": "ci", "expires_at": "2020-01-01T00:00:00Z"}, format="json"
    )

    assert response.status_code == 400
    assert "expires_at" in response.json()
    assert not ApiToken.objects.exists()


@pytest.mark.django_db
def test_a_token_cannot_mint_one_that_outlives_it(admin):
    client = bearer(token(admin, expires_in=dt.timedelta(days=1)))
    later = (timezone.now() + dt.timedelta(days=365)).isoformat()

    forever = client.post("/api/v1/tokens/", {"name": "forever", "expires_at": later}, format="json")
    unbounded = client.post("/api/v1/tokens/", {"name": "unbounded", "scope": "read_write"}, format="json")

    assert forever.status_code == 400 and "expires_at" in forever.json()
    assert unbounded.status_code == 201
    issuer = ApiToken.objects.get(name="ci")
    minted = ApiToken.objects.get(name="unbounded")
    assert minted.expires_at == issuer.expires_at  # no later than the token that issued it
    assert not ApiToken.objects.filter(name="forever").exists()


@pytest.mark.django_db
def test_a_read_token_mints_nothing(admin):
    response = bearer(token(admin, scope=TokenScope.READ)).post(
        "/api/v1/tokens/", {"name": "wider", "scope": "read_write"}, format="json"
    )

    assert response.status_code == 403
    assert ApiToken.objects.count() == 1


@pytest.mark.django_db
def test_a_read_write_token_may_mint_a_read_token_within_its_life(admin):
    client = bearer(token(admin, expires_in=dt.timedelta(days=2)))
    sooner = (timezone.now() + dt.timedelta(days=1)).isoformat()

    response = client.post(
        "/api/v1/tokens/", {"name": "reader", "scope": "read", "expires_at": sooner}, format="json"
    )

    assert response.status_code == 201, response.content
    assert ApiToken.objects.get(name="reader").scope == TokenScope.READ
