"""Fixtures for the snapshot, degraded mode and surge tests: the public test site, a snapshot
folder per test, and a database made really unreachable (connection pointed at nothing)."""

import pytest
import time_machine
from django.core.management import call_command
from django.db import connections
from django.test import override_settings

from incidents.public import degraded, snapshot
from incidents.roles import Role
from tests.conftest import FAST_HASHERS, TEST_CACHES, make_user
from tests.public.conftest import NOW, _frozen_now, _no_page_cache, _site_rows, build_site, site  # noqa: F401  (shared fixtures)

CLOSED_PORT = "8899"  # never listened on by the tests


@pytest.fixture
def snapshot_dir(settings, tmp_path):
    settings.STATUS_SNAPSHOT_DIR = tmp_path / "snapshot"
    return settings.STATUS_SNAPSHOT_DIR


@pytest.fixture
def database_down(settings, tmp_path):
    """Points the default connection at a closed port (PostgreSQL) or an unopenable file (SQLite).

    The open connection is put aside rather than closed (an in-memory test database would
    vanish with it) and restored afterwards; `restore()` brings the database back mid-test.
    """
    settings.DEGRADED_RECHECK_SECONDS = 0
    connection = connections["default"]
    connection.ensure_connection()  # the live connection is put aside and restored, never reopened
    saved = (connection.connection, dict(connection.settings_dict))
    degraded.state.down_since = None

    def restore() -> None:
        connection.connection = saved[0]
        connection.settings_dict.clear()
        connection.settings_dict.update(saved[1])

    connection.connection = None
    if connection.vendor == "postgresql":
        connection.settings_dict["PORT"] = CLOSED_PORT
        connection.settings_dict["HOST"] = "127.0.0.1"
    else:
        connection.settings_dict["NAME"] = str(tmp_path / "missing-folder" / "db.sqlite3")
    yield restore
    restore()
    degraded.state.down_since = None


@pytest.fixture(scope="session")
def site_snapshot(django_db_setup, django_db_blocker, tmp_path_factory):
    """One export of the public test site for the test process: the degraded-mode modules only
    read it, and an export renders every page in every language. The site's rows are flushed
    right after, as after every test here, so each test starts as before."""
    folder = tmp_path_factory.mktemp("degraded") / "snapshot"
    quiet = override_settings(
        STATUS_SNAPSHOT_DIR=folder,
        PUBLIC_PAGE_CACHE_SECONDS=0,
        PASSWORD_HASHERS=FAST_HASHERS,
        CACHES=TEST_CACHES,
    )
    with django_db_blocker.unblock(), quiet, time_machine.travel(NOW, tick=True):
        build_site(make_user("ada", Role.ADMIN))
        made = snapshot.export()
        call_command("flush", interactive=False, verbosity=0)
    return folder, made


@pytest.fixture
def exported(site_snapshot, settings):
    """The process's snapshot, current for this test."""
    settings.STATUS_SNAPSHOT_DIR, made = site_snapshot
    return made
