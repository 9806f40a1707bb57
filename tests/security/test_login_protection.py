"""Login protection on the editor, /admin/ and the API's session login: counted per user name
and client before the password is checked, atomic under concurrent guesses, and keyed by the
address our trusted proxy saw (never by a header the client made up)."""

import datetime as dt
import threading

import pytest
import time_machine
from django.db import connection
from django.test import Client

from .conftest import PASSWORD

LOGINS = {
    "editor": "/editor/login/",
    "admin": "/admin/login/?next=/admin/",
    "api": "/api/v1/auth/login/?next=/api/v1/incidents/",
}


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.django_db
@pytest.mark.parametrize("login", LOGINS)
def test_thirty_wrong_passwords_lock_out_the_right_one(admin, login):
    client = Client()
    answers = [
        client.post(LOGINS[login], {"username": "ada", "password": f"guess{n}"}).status_code
        for n in range(30)
    ]

    right = client.post(LOGINS[login], {"username": "ada", "password": PASSWORD})

    assert answers[:5] == [200] * 5  # checked, and wrong
    assert set(answers[5:]) == {429}
    assert right.status_code == 429
    assert "Too many failed attempts" in right.content.decode()
    assert not logged_in(client)


@pytest.mark.django_db
@pytest.mark.parametrize("login", LOGINS)
def test_the_right_password_logs_in_before_the_limit(admin, login):
    client = Client()
    for _attempt in range(4):
        client.post(LOGINS[login], {"username": "ada", "password": "wrong"})

    response = client.post(LOGINS[login], {"username": "ada", "password": PASSWORD})

    assert response.status_code == 302
    assert logged_in(client)


@pytest.mark.django_db
def test_the_api_session_login_page_answers(admin):
    response = Client().get("/api/v1/auth/login/")

    assert response.status_code == 200
    assert b'name="password"' in response.content


@pytest.mark.django_db
def test_the_lockout_ends_with_its_window(admin, settings):
    settings.REDIS_URL = ""  # Redis expires keys by its own clock, which time-machine does not move
    settings.LOGIN_LOCKOUT_SECONDS = 60
    with time_machine.travel(dt.datetime(2026, 3, 4, 9, 0, tzinfo=dt.UTC), tick=False) as traveller:
        for _attempt in range(6):
            Client().post("/editor/login/", {"username": "ada", "password": "wrong"})
        assert Client().post("/editor/login/", {"username": "ada", "password": PASSWORD}).status_code == 429
        traveller.shift(dt.timedelta(seconds=61))
        assert Client().post("/editor/login/", {"username": "ada", "password": PASSWORD}).status_code == 302


@pytest.mark.django_db
def test_two_clients_behind_the_trusted_proxy_have_their_own_lockouts(admin, settings):
    settings.TRUSTED_PROXY_HEADER = "X-Forwarded-For"
    guesser = Client(HTTP_X_FORWARDED_FOR="203.0.113.5", REMOTE_ADDR="10.0.0.2")
    colleague = Client(HTTP_X_FORWARDED_FOR="198.51.100.7", REMOTE_ADDR="10.0.0.2")
    for _attempt in range(10):
        guesser.post("/editor/login/", {"username": "ada", "password": "wrong"})

    assert guesser.post("/editor/login/", {"username": "ada", "password": PASSWORD}).status_code == 429
    assert colleague.post("/editor/login/", {"username": "ada", "password": PASSWORD}).status_code == 302


@pytest.mark.django_db
def test_the_client_is_the_entry_our_own_proxies_added(admin, settings):
    settings.TRUSTED_PROXY_HEADER = "X-Forwarded-For"
    settings.TRUSTED_PROXY_COUNT = 2
    for n in range(10):
        # What the client sent comes first and changes; our two proxies appended the rest.
        Client(HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 203.0.113.5, 10.0.0.3").post(
            "/editor/login/", {"username": "ada", "password": "wrong"}
        )

    same_client = Client(HTTP_X_FORWARDED_FOR="192.0.2.99, 203.0.113.5, 10.0.0.3")
    assert same_client.post("/editor/login/", {"username": "ada", "password": PASSWORD}).status_code == 429


@pytest.mark.django_db
def test_without_a_trusted_proxy_a_forged_forwarded_for_is_ignored(admin):
    for n in range(10):
        Client(HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").post(
            "/editor/login/", {"username": "ada", "password": "wrong"}
        )

    forged = Client(HTTP_X_FORWARDED_FOR="192.0.2.200")
    assert forged.post("/editor/login/", {"username": "ada", "password": PASSWORD}).status_code == 429


def _concurrent_wrong_attempts(path: str, attempts: int) -> list[int]:
    answers = []
    start = threading.Barrier(attempts)

    def attempt():
        try:
            start.wait()
            answers.append(Client().post(path, {"username": "ada", "password": "wrong"}).status_code)
        except Exception as error:  # shown in the assertion below, not swallowed
            answers.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(attempts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("store", ["database", pytest.param("redis", marks=pytest.mark.redis)])
@pytest.mark.parametrize("login", LOGINS)
def test_concurrent_wrong_attempts_are_checked_at_most_up_to_the_limit(admin, settings, store, login):
    if store == "database":
        settings.REDIS_URL = ""

    # Fifteen at once, three times the limit: enough to show the cap without exhausting the
    # database's connections while the other test worker runs.
    answers = _concurrent_wrong_attempts(LOGINS[login], 15)

    assert sorted(set(answers)) == [200, 429], answers
    assert answers.count(200) == settings.LOGIN_MAX_FAILURES, answers
