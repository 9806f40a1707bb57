"""Logging in to the editor, throttled after repeated failures; CSRF on every form."""

import re
import uuid

import pytest
from django.test import Client

from .conftest import PASSWORD
from .test_permissions import ACTIONS, snapshot


@pytest.mark.django_db
def test_a_responder_logs_in_and_lands_on_the_overview(responder):
    client = Client()
    response = client.post("/editor/login/", {"username": "rita", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/editor/"
    assert client.get("/editor/").status_code == 200


@pytest.mark.django_db
def test_login_follows_next_only_to_this_site(responder):
    response = Client().post(
        "/editor/login/", {"username": "rita", "password": PASSWORD, "next": "https://evil.example/"}
    )
    assert response["Location"] == "/editor/"
    response = Client().post(
        "/editor/login/", {"username": "rita", "password": PASSWORD, "next": "/editor/audit/"}
    )
    assert response["Location"] == "/editor/audit/"


@pytest.mark.django_db
def test_wrong_password_shows_an_error_and_keeps_the_user_name(responder):
    response = Client().post("/editor/login/", {"username": "rita", "password": "nope"})
    assert response.status_code == 200
    assert b'value="rita"' in response.content
    assert b"errorlist" in response.content


@pytest.mark.django_db
def test_login_is_refused_after_repeated_failures_even_with_the_right_password(responder, settings):
    settings.LOGIN_MAX_FAILURES = 3
    client = Client()
    for _attempt in range(3):
        assert client.post("/editor/login/", {"username": "rita", "password": "wrong"}).status_code == 200
    locked = client.post("/editor/login/", {"username": "rita", "password": PASSWORD})
    assert locked.status_code == 429
    assert b"Too many failed attempts" in locked.content
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_throttle_is_per_user_name(responder, viewer, settings):
    settings.LOGIN_MAX_FAILURES = 2
    client = Client()
    for _attempt in range(2):
        client.post("/editor/login/", {"username": "rita", "password": "wrong"})
    assert client.post("/editor/login/", {"username": "victor", "password": PASSWORD}).status_code == 302


@pytest.mark.django_db
def test_a_successful_login_clears_earlier_failures(responder, settings):
    settings.LOGIN_MAX_FAILURES = 3
    client = Client()
    for _attempt in range(2):
        client.post("/editor/login/", {"username": "rita", "password": "wrong"})
    assert client.post("/editor/login/", {"username": "rita", "password": PASSWORD}).status_code == 302
    client.post("/editor/logout/")
    for _attempt in range(2):
        client.post("/editor/login/", {"username": "rita", "password": "wrong"})
    assert client.post("/editor/login/", {"username": "rita", "password": PASSWORD}).status_code == 302


@pytest.mark.django_db
def test_logout_needs_a_post(responder):
    client = Client()
    client.force_login(responder)
    assert client.get("/editor/logout/").status_code == 405
    assert client.post("/editor/logout/").status_code == 302
    assert client.get("/editor/").status_code == 302


def _csrf_client(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def _token(client: Client, url: str) -> str:
    page = client.get(url)
    return re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page.content)[1].decode()


@pytest.mark.django_db
def test_login_form_needs_the_csrf_token(responder):
    client = Client(enforce_csrf_checks=True)
    refused = client.post("/editor/login/", {"username": "rita", "password": PASSWORD})
    assert refused.status_code == 403
    token = _token(client, "/editor/login/")
    accepted = client.post(
        "/editor/login/", {"username": "rita", "password": PASSWORD, "csrfmiddlewaretoken": token}
    )
    assert accepted.status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize(
    "action", [a for a in ACTIONS if a[1] == "post"], ids=[a[0] for a in ACTIONS if a[1] == "post"]
)
def test_every_action_is_refused_without_the_csrf_token(admin, world, action):
    _name, _method, _minimum, url, data, _status = action
    client = _csrf_client(admin)
    before = snapshot()
    response = client.post(url(world), data(world))
    assert response.status_code == 403
    assert snapshot() == before


@pytest.mark.django_db
def test_declaring_with_the_csrf_token_from_the_form_works(admin, api):
    client = _csrf_client(admin)
    token = _token(client, "/editor/incidents/new/")
    response = client.post(
        "/editor/incidents/new/",
        {
            "title": "Outage",
            "impact": "minor",
            "language": "en",
            "body": "Looking.",
            "csrfmiddlewaretoken": token,
        },
    )
    assert response.status_code == 302


@pytest.mark.django_db
def test_one_address_trying_many_user_names_is_stopped(responder, settings):
    settings.LOGIN_MAX_FAILURES = 2  # so 8 failures from one address, whatever the names
    client = Client()
    for attempt in range(8):
        client.post("/editor/login/", {"username": f"guess{attempt}", "password": "wrong"})
    assert client.post("/editor/login/", {"username": "rita", "password": PASSWORD}).status_code == 429


@pytest.mark.redis
@pytest.mark.django_db
def test_the_throttle_counts_in_redis(responder, settings):
    """The counter works on the production cache (shared by every web process)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "statuspage.redis_cache.RedisCache",
            "LOCATION": settings.REDIS_URL,
            # A fresh prefix instead of flushing: the database may hold other data.
            "KEY_PREFIX": f"test-editor-throttle-{uuid.uuid4().hex}",
            "TIMEOUT": 60,
        }
    }
    settings.LOGIN_MAX_FAILURES = 2
    settings.LOGIN_LOCKOUT_SECONDS = 60
    client = Client()
    for _attempt in range(2):
        client.post("/editor/login/", {"username": "rita", "password": "wrong"})
    assert client.post("/editor/login/", {"username": "rita", "password": PASSWORD}).status_code == 429


@pytest.mark.django_db
def test_the_login_button_comes_before_the_language_switch():
    page = Client().get("/editor/login/").content.decode()
    buttons = re.findall(r"<button[^>]*>([^<]+)</button>", page)
    assert [b for b in buttons if b in ("Log in", "Change")] == ["Log in", "Change"]
    # The theme switch stays in the header; the language switch is no longer there.
    header = page[page.index("<header") : page.index("</header>")]
    assert 'name="language"' not in header
