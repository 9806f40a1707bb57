"""An office behind one NAT address: its correct logins never lock anyone out, while wrong
passwords still lock a user name, and an address that guesses at many names is still stopped."""

import pytest
from django.test import Client

from tests.security.conftest import PASSWORD

LOGINS = {
    "editor": "/editor/login/",
    "admin": "/admin/login/?next=/admin/",
    "api": "/api/v1/auth/login/?next=/api/v1/incidents/",
}


def log_in(path: str, username: str, password: str = PASSWORD) -> int:
    """One person at the office's address (every test client is 127.0.0.1) logging in."""
    return Client().post(path, {"username": username, "password": password}).status_code


@pytest.mark.django_db
@pytest.mark.parametrize("login", LOGINS)
def test_twenty_five_correct_logins_from_one_address_all_succeed(admin, login):
    answers = [log_in(LOGINS[login], "ada") for _ in range(25)]

    assert answers == [302] * 25


@pytest.mark.redis
@pytest.mark.django_db
def test_correct_logins_from_one_address_all_succeed_with_the_counters_in_redis(admin):
    answers = [log_in("/editor/login/", "ada") for _ in range(25)]

    assert answers == [302] * 25


@pytest.mark.django_db
def test_wrong_passwords_lock_one_name_while_colleagues_at_the_same_address_log_in(admin, responder, viewer):
    office = [log_in("/editor/login/", name) for _ in range(10) for name in ("ada", "victor")]
    wrong = [log_in("/editor/login/", "rita", "guess") for _ in range(5)]

    assert office == [302] * 20
    assert wrong == [200] * 5  # checked, and wrong
    assert log_in("/editor/login/", "rita") == 429  # locked, as before: even the right password
    assert log_in("/editor/login/", "victor") == 302
    assert log_in("/editor/login/", "ada") == 302


@pytest.mark.django_db
def test_an_address_guessing_at_many_names_is_stopped_however_many_correct_logins_it_makes(admin):
    correct, wrong = [], []
    for n in range(20):
        correct.append(log_in("/editor/login/", "ada"))
        wrong.append(log_in("/editor/login/", f"guessed-name-{n}", "guess"))

    assert correct == [302] * 20
    assert wrong == [200] * 20  # four times the per-name limit, over many names
    assert log_in("/editor/login/", "another-guessed-name", "guess") == 429
