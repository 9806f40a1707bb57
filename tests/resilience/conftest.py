"""Fixtures for the snapshot, degraded mode and surge tests: the public test site, a snapshot
folder per test, and a database made really unreachable (connection pointed at nothing)."""

import pytest
from django.db import connections

from incidents.public import degraded
from tests.public.conftest import _frozen_now, _no_page_cache, _site_rows, site  # noqa: F401  (shared fixtures)

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
