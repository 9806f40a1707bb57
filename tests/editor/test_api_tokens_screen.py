"""The editor's API token screen: expiry shown in words, the secret shown once, revoking, and the
API's rules on who may issue tokens."""

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient

from incidents.models import ApiToken, AuditEvent, TokenScope
from incidents.services.api_tokens import issue_token
from tests.conftest import database_rows
from tests.hostile.conftest import assert_form_refused

pytestmark = pytest.mark.django_db

SECRET = re.compile(r"data-api-token>(sp_[A-Za-z0-9_-]+)<")


def bearer(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def days_ahead(days: int) -> dt.date:
    return (timezone.now().astimezone(ZoneInfo(settings.STATUS_TIME_ZONE)) + dt.timedelta(days=days)).date()


def create(client, **fields):
    data = {"name": "deploy script", "scope": "read", "expires_on": ""} | fields
    return client.post("/editor/tokens/new/", data)


def issued_secret(response) -> str:
    found = SECRET.search(response.content.decode())
    assert found, "no secret on the result page"
    return found.group(1)


def test_the_list_shows_each_expiry_in_words(clients, viewer):
    issue_token(viewer, name="forever", scope=TokenScope.READ, actor=viewer)
    issue_token(
        viewer,
        name="quarter",
        scope=TokenScope.READ,
        actor=viewer,
        expires_at=timezone.now() + dt.timedelta(days=90),
    )
    old, _secret = issue_token(
        viewer,
        name="old",
        scope=TokenScope.READ,
        actor=viewer,
        expires_at=timezone.now() + dt.timedelta(hours=1),
    )
    ApiToken.objects.filter(pk=old.pk).update(expires_at=timezone.now() - dt.timedelta(days=1))

    page = clients["viewer"].get("/editor/tokens/").content.decode()

    expiry = {
        name: re.search(rf'<td[^>]*>{name}</td>.*?<td[^>]* class="expiry">(.*?)</td>', page, re.S).group(1)
        for name in ("forever", "quarter", "old")
    }
    assert expiry["forever"] == "never"
    assert "in 3 months" in expiry["quarter"] and "expired" not in expiry["quarter"]
    assert '<strong class="expired">expired</strong>' in expiry["old"]


def test_the_expiry_is_said_in_the_editors_language(clients, viewer):
    issue_token(
        viewer,
        name="quarter",
        scope=TokenScope.READ,
        actor=viewer,
        expires_at=timezone.now() + dt.timedelta(days=90),
    )
    client = clients["viewer"]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "nb"

    page = client.get("/editor/tokens/").content.decode()

    assert "om 3 måneder" in page


def test_creating_a_token_shows_its_secret_once_and_it_works_against_the_api(clients, viewer):
    response = create(clients["viewer"], name="deploy script", expires_on=days_ahead(30).isoformat())

    assert response.status_code == 200
    secret = issued_secret(response)
    assert bearer(secret).get("/api/v1/incidents/").status_code == 200
    token = ApiToken.objects.get()
    assert (token.user, token.name, token.scope) == (viewer, "deploy script", TokenScope.READ)
    zone = ZoneInfo(settings.STATUS_TIME_ZONE)
    assert token.expires_at == dt.datetime.combine(days_ahead(30), dt.time.min, tzinfo=zone)
    assert AuditEvent.objects.filter(action="api_token.issued", actor=viewer).count() == 1


def test_the_secret_is_never_shown_again(clients, viewer):
    client = clients["viewer"]
    secret = issued_secret(create(client))

    reloaded = client.get("/editor/tokens/new/", follow=True)
    listed = client.get("/editor/tokens/")

    assert reloaded.status_code == 200 and listed.status_code == 200
    for page in (reloaded, listed):
        assert secret not in page.content.decode()
        assert secret[:10] in page.content.decode()  # the prefix, to tell tokens apart
    assert secret not in str(dict(client.session))


def test_revoking_a_token_stops_it(clients, viewer):
    token, secret = issue_token(viewer, name="ci", scope=TokenScope.READ, actor=viewer)
    assert bearer(secret).get("/api/v1/incidents/").status_code == 200

    response = clients["viewer"].post(f"/editor/tokens/{token.pk}/revoke/")

    assert response.status_code == 302
    assert bearer(secret).get("/api/v1/incidents/").status_code == 401
    assert AuditEvent.objects.filter(action="api_token.revoked", actor=viewer).count() == 1
    assert "revoked" in clients["viewer"].get("/editor/tokens/").content.decode()


def test_revoking_needs_a_post(clients, viewer):
    token, secret = issue_token(viewer, name="ci", scope=TokenScope.READ, actor=viewer)

    assert clients["viewer"].get(f"/editor/tokens/{token.pk}/revoke/").status_code == 405
    assert bearer(secret).get("/api/v1/incidents/").status_code == 200


def test_an_admin_sees_every_token_but_revokes_only_their_own_as_in_the_api(clients, viewer, responder):
    token, secret = issue_token(viewer, name="viewer's script", scope=TokenScope.READ, actor=viewer)

    admin_page = clients["admin"].get("/editor/tokens/").content.decode()
    responder_page = clients["responder"].get("/editor/tokens/").content.decode()
    refused = clients["admin"].post(f"/editor/tokens/{token.pk}/revoke/")

    assert "viewer&#x27;s script" in admin_page and viewer.get_username() in admin_page
    assert "viewer&#x27;s script" not in responder_page
    assert refused.status_code == 404
    assert bearer(secret).get("/api/v1/incidents/").status_code == 200


@pytest.mark.parametrize("persona", ["outsider", "viewer", "responder", "admin"])
def test_who_may_create_a_token_is_who_the_api_lets(clients, persona, admin, responder, viewer, outsider):
    api_client = APIClient()
    api_client.force_login(
        {"outsider": outsider, "viewer": viewer, "responder": responder, "admin": admin}[persona]
    )
    api_allows = api_client.post("/api/v1/tokens/", {"name": "via api"}, format="json").status_code == 201

    response = create(clients[persona], name="via editor")

    created = ApiToken.objects.filter(name="via editor").exists()
    assert created == api_allows
    assert response.status_code == (200 if api_allows else 403)


def test_anonymous_is_sent_to_the_login_and_nothing_is_created(clients):
    response = create(clients["anonymous"])

    assert response.status_code == 302 and "/editor/login/" in response["Location"]
    assert not ApiToken.objects.exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("expires_on", "yesterday"),
        ("expires_on", "today"),
        ("expires_on", "eleven years"),
        ("expires_on", "0001-01-01"),
        ("expires_on", "0000-01-01"),
        ("expires_on", "9999-12-31"),
        ("expires_on", "2027-02-30"),
        ("expires_on", "not a date"),
        ("scope", "admin"),
        ("scope", ""),
        ("name", ""),
        ("name", "   "),
        ("name", "x" * 101),
    ],
)
def test_bad_input_is_refused_with_a_form_error_and_writes_nothing(clients, field, value):
    relative = {"yesterday": -1, "today": 0, "eleven years": 11 * 366}
    if value in relative:
        value = days_ahead(relative[value]).isoformat()
    before = database_rows()

    response = create(clients["viewer"], **{field: value})

    assert_form_refused(response, field)
    assert not SECRET.search(response.content.decode())
    assert database_rows() == before


def test_the_api_refuses_an_expiry_beyond_the_planning_horizon(viewer):
    client = APIClient()
    client.force_login(viewer)
    too_late = (timezone.now() + dt.timedelta(days=11 * 366)).isoformat()

    response = client.post("/api/v1/tokens/", {"name": "ci", "expires_at": too_late}, format="json")

    assert response.status_code == 400 and "expires_at" in response.json()
    assert not ApiToken.objects.exists()
