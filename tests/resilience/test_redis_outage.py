"""With Redis stopped (a real redis-server of the test's own, stopped mid-test) or hanging, the
editor, admin and API logins take the right password and still lock out guessers, and public
subscribing is accepted with nothing lost: the counters are kept in the database meanwhile."""

import shutil
import socket
import subprocess
import time
from types import SimpleNamespace

import pytest
from django.core import mail
from django.core.cache import caches
from django.test import Client

from incidents.models import Subscriber
from incidents.security import counters
from statuspage import settings as configured
from tests.conftest import worker_ports
from tests.security.conftest import PASSWORD

from .test_cache_outage import hanging_redis  # noqa: F401  (a shared fixture)

pytestmark = [pytest.mark.system, pytest.mark.django_db]

LOGINS = {
    "editor": "/editor/login/",
    "admin": "/admin/login/?next=/admin/",
    "api": "/api/v1/auth/login/?next=/api/v1/incidents/",
}


def _free_port() -> int:
    for port in worker_ports(8700, 8800):
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) != 0:
                return port
    raise RuntimeError("no free port for redis-server")


def _answers(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        try:
            sock.connect(("127.0.0.1", port))
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False


@pytest.fixture
def own_redis():
    """A redis-server of this test's own (never the shared one): `stop()` stops it."""
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    port = _free_port()
    command = ["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not _answers(port):
        assert time.monotonic() < deadline and process.poll() is None, "redis-server did not start"
        time.sleep(0.02)

    def stop() -> None:
        process.terminate()
        process.wait(timeout=10)

    yield SimpleNamespace(url=f"redis://127.0.0.1:{port}/0", stop=stop)
    if process.poll() is None:
        stop()


@pytest.fixture
def redis_stopped(settings, own_redis, admin):
    """Counters and the page cache on the test's Redis, as production configures them; the right
    password logs in once while it runs, then it stops."""
    settings.REDIS_URL = own_redis.url
    settings.CACHES = {"default": {**configured.CACHES["default"], "LOCATION": own_redis.url}}
    assert log_in("/editor/login/", "ada") == 302
    own_redis.stop()
    yield
    caches["default"].close()


def log_in(path: str, username: str, password: str = PASSWORD) -> int:
    return Client().post(path, {"username": username, "password": password}).status_code


@pytest.mark.redis
@pytest.mark.parametrize("login", LOGINS)
def test_the_right_password_logs_in_while_redis_is_stopped(redis_stopped, login):
    client = Client()

    response = client.post(LOGINS[login], {"username": "ada", "password": PASSWORD})

    assert response.status_code == 302
    assert "_auth_user_id" in client.session


@pytest.mark.redis
def test_wrong_passwords_still_lock_the_name_while_redis_is_stopped(redis_stopped):
    wrong = [log_in("/editor/login/", "ada", f"guess{n}") for n in range(5)]

    assert wrong == [200] * 5
    assert log_in("/editor/login/", "ada") == 429


@pytest.mark.redis
def test_subscribing_is_accepted_and_confirmed_by_mail_while_redis_is_stopped(
    redis_stopped, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        from_api = Client().post(
            "/subscribe/api/", {"email": "api@example.com", "language": "en"}, content_type="application/json"
        )
        from_page = Client().post("/subscribe/", {"email": "page@example.com", "language": "en"})

    assert from_api.status_code == 202
    assert from_page.status_code == 200 and b"Check your inbox" in from_page.content
    assert set(Subscriber.objects.values_list("email", flat=True)) == {"api@example.com", "page@example.com"}
    assert sorted(message.to[0] for message in mail.outbox) == ["api@example.com", "page@example.com"]


@pytest.mark.redis
def test_the_subscribe_limits_still_hold_while_redis_is_stopped(redis_stopped, settings):
    settings.SUBSCRIBE_RATE_PER_CLIENT = 2
    answers = [
        Client()
        .post("/subscribe/api/", {"email": f"r{n}@example.com"}, content_type="application/json")
        .status_code
        for n in range(3)
    ]

    assert answers == [202, 202, 429]


def test_a_redis_that_hangs_costs_the_logins_one_timeout(settings, admin, hanging_redis):  # noqa: F811
    settings.REDIS_URL = hanging_redis.url
    settings.REDIS_TIMEOUT_SECONDS = 0.2

    answers = [log_in("/editor/login/", "ada") for _ in range(4)]

    assert answers == [302] * 4
    assert counters.redis_down()
    assert len(hanging_redis.accepted) == 1, "after the first timeout Redis is not asked again"
