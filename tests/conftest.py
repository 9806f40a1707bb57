"""Personas, factories, the rule for tests that need real services, and what keeps parallel
workers apart.

Tests marked `postgres` or `redis` skip with a reason when the service is not configured,
and fail instead when REQUIRE_SERVICES=1 (as in CI), so a missing service never passes quietly.

Under pytest-xdist each worker gets a var directory (files, the probes' SQLite database) and a
Redis database of its own, and its own share of the local port ranges; PostgreSQL test
databases are per worker already (pytest-django adds the worker id to their names).
"""

import datetime as dt
import os
import urllib.parse
import uuid
from contextlib import contextmanager

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import caches
from django.db import connection, transaction
from django.test import override_settings
from django.utils import translation

from incidents.channels import receiver_breakers
from incidents.models import Component, ComponentGroup, Metric
from incidents.public import cache_breaker
from incidents.roles import Role, assign_role
from incidents.security import counters

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
REDIS_DATABASES = 16
# Personas are made in most tests; the production hasher costs most of a second per password.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
TEST_CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def _worker_environment(worker_id: str) -> dict[str, str]:
    index = int(worker_id.removeprefix("gw"))
    environment = {"STATUSPAGE_VAR_DIR": str(settings.VAR_DIR / "test-workers" / worker_id)}
    if settings.REDIS_URL:
        url = urllib.parse.urlsplit(settings.REDIS_URL)
        first = int(url.path.strip("/") or 0)
        database = (first - index) % REDIS_DATABASES
        environment["REDIS_URL"] = urllib.parse.urlunsplit(url._replace(path=f"/{database}"))
    return environment


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_newgateway(gateway):
    """Sets the worker's environment before it imports Django's settings (which read it once)."""
    code = f"import os; os.environ.update({_worker_environment(gateway.id)!r})"
    gateway.remote_exec(code).waitclose()


def worker_ports(first: int, last: int) -> range:
    """This worker's share of the local ports first..last-1, so workers never race for one."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    index = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    share = (last - first) // workers
    return range(first + index * share, first + (index + 1) * share)


def _service_missing(marker: str) -> str | None:
    if marker == "postgres" and settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        return "needs PostgreSQL: set DATABASE_URL=postgres://…"
    if marker == "redis" and not settings.REDIS_URL:
        return "needs Redis: set REDIS_URL=redis://…"
    return None


def pytest_runtest_setup(item):
    for marker in ("postgres", "redis"):
        if item.get_closest_marker(marker):
            reason = _service_missing(marker)
            if reason and REQUIRE_SERVICES:
                pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}")
            if reason:
                pytest.skip(reason)


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site language, whatever an earlier test activated."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _isolated_counters(monkeypatch):
    """Login and rate-limit counters in Redis outlive a test: each test counts under its own keys."""
    monkeypatch.setattr(counters, "REDIS_PREFIX", f"test-counter:{uuid.uuid4().hex}:")


@pytest.fixture(autouse=True)
def _closed_circuits():
    """Circuit breakers live in the process: one test's failing receiver or cache server must not
    hold back the next test's deliveries to a receiver on the same port, its cached pages, or
    its counters in Redis."""
    receiver_breakers.reset()
    cache_breaker.reset()
    counters.reset()


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = FAST_HASHERS


@pytest.fixture(autouse=True)
def _isolated_cache(settings):
    settings.CACHES = TEST_CACHES
    # Every LocMemCache of one location shares its entries in the process: a page kept by the
    # previous test, under the same content version, would otherwise be served to this one.
    caches["default"].clear()


@contextmanager
def written_once(django_db_blocker):
    """Rows written once for a whole module or class of tests, inside a transaction that is rolled
    back after its last test. Each test runs in a savepoint of it (pytest-django's `db`), so
    whatever a test changes is undone before the next: every test still starts from the same
    rows, without writing them hundreds of times."""
    quiet = override_settings(PASSWORD_HASHERS=FAST_HASHERS, CACHES=TEST_CACHES)
    with (
        django_db_blocker.unblock(),
        transaction.atomic(),
        quiet,
        translation.override(settings.LANGUAGE_CODE),
    ):
        yield
        transaction.set_rollback(True)


def row_keys(built: dict) -> dict:
    """Objects written once (see written_once), as the model and primary key of each (or of each
    object in a tuple), for each test to read afresh with read_rows."""
    return {
        name: tuple((type(o), o.pk) for o in value) if isinstance(value, tuple) else (type(value), value.pk)
        for name, value in built.items()
    }


def read_rows(keys: dict) -> dict:
    """The objects of row_keys read from the database: a test may change the objects it is given."""

    def read(key):
        model, pk = key
        return model.objects.get(pk=pk)

    return {
        name: tuple(read(k) for k in key) if isinstance(key[0], tuple) else read(key)
        for name, key in keys.items()
    }


def make_user(username: str, role: Role | None):
    user = get_user_model().objects.create_user(username=username, password="correct horse battery")
    if role:
        assign_role(user, role)
    return user


def make_users() -> dict:
    return {
        "admin": make_user("ada", Role.ADMIN),
        "responder": make_user("rita", Role.RESPONDER),
        "viewer": make_user("victor", Role.VIEWER),
        "outsider": make_user("olga", None),
        "superuser": get_user_model().objects.create_superuser(username="root", password="x"),
    }


def side_fixture(build, *, scope: str = "module"):
    """A fixture of (personas, world): make_users and what `build(users)` makes, written once
    per `scope` (see written_once); each test runs in a savepoint of them."""

    @pytest.fixture(scope=scope)
    def side(django_db_setup, django_db_blocker):
        with written_once(django_db_blocker):
            users = make_users()
            yield users, build(users)

    return side


@pytest.fixture
def admin(db):
    return make_user("ada", Role.ADMIN)


@pytest.fixture
def responder(db):
    return make_user("rita", Role.RESPONDER)


@pytest.fixture
def viewer(db):
    return make_user("victor", Role.VIEWER)


@pytest.fixture
def outsider(db):
    return make_user("olga", None)


@pytest.fixture
def make_component(db):
    def make(slug="api", *, group=None, name=None, **fields):
        return Component.objects.create(slug=slug, group=group, name=name or {"en": slug.title()}, **fields)

    return make


@pytest.fixture
def group(db):
    return ComponentGroup.objects.create(slug="core", name={"en": "Core", "nb": "Kjerne"}, position=1)


@pytest.fixture
def component(make_component, group):
    return make_component("webhooks", group=group, name={"en": "Webhook delivery", "ru": "Доставка вебхуков"})


@pytest.fixture
def latency_metric(component):
    return Metric.objects.create(
        component=component,
        slug="delay",
        name={"en": "Webhook delivery delay"},
        unit="s",
        precision=1,
        degraded_threshold=60,
        partial_outage_threshold=300,
        major_outage_threshold=900,
    )


@pytest.fixture
def at():
    """A fixed instant to build timelines from."""
    return dt.datetime(2026, 3, 4, 9, 55, tzinfo=dt.UTC)


# Stamped by every request a token authenticates, refused or not.
UNWATCHED_FIELDS = {("incidents.ApiToken", "last_used_at")}
# Rate-limit counters: a refused request is meant to count against its client.
UNWATCHED_MODELS = {"incidents.Counter"}


def database_rows() -> dict[str, list[dict]]:
    """Every row of every model of the platform, field by field (audit trail included): equal
    before and after means nothing was written, not even one field of one row, so every public
    page shows what it showed before."""
    rows = {}
    with connection.cursor() as cursor:
        for model in apps.get_app_config("incidents").get_models():
            label, table = model._meta.label, model._meta.db_table
            if label in UNWATCHED_MODELS:
                continue
            columns = [
                f.column for f in model._meta.concrete_fields if (label, f.attname) not in UNWATCHED_FIELDS
            ]
            # Plain SQL: read twice in each of thousands of cases, where the ORM adds up to minutes.
            quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
            pk = connection.ops.quote_name(model._meta.pk.column)
            cursor.execute(f"SELECT {quoted} FROM {connection.ops.quote_name(table)} ORDER BY {pk}")
            rows[label] = [dict(zip(columns, values, strict=True)) for values in cursor.fetchall()]
    return rows
