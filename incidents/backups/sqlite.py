"""SQLite backups through SQLite's online backup API, both ways: a copy of the file while the
platform writes to it could catch a transaction half done, the backup API never does."""

import sqlite3
import urllib.parse
from contextlib import closing
from pathlib import Path

from django.db.backends.base.base import BaseDatabaseWrapper

from incidents.backups.failures import BackupFailed, RestoreRefused


def dump(connection: BaseDatabaseWrapper, *, destination: Path) -> None:
    """Copies the database behind `connection` into the file `destination`."""
    try:
        with closing(sqlite3.connect(destination)) as target:
            # All pages in one step, under one read transaction: a consistent copy while writers
            # go on (in WAL mode they are not held back). Step by step, each write would restart it.
            _open(connection).backup(target)
            # A self-contained file: in WAL mode some of it could stay in a -wal file beside it.
            target.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as error:
        raise BackupFailed(f"SQLite could not back up the database: {error}") from None


def load(connection: BaseDatabaseWrapper, *, source: Path) -> None:
    """Replaces the database behind `connection` by the one in `source`, in one write
    transaction of SQLite's: readers see the old database or the new one."""
    if connection.in_atomic_block:
        raise BackupFailed("a restore cannot run inside a transaction")
    uri = f"file:{urllib.parse.quote(str(source.resolve()))}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as backup:
        _check(backup, source=source)
        try:
            backup.backup(_open(connection))
        except sqlite3.Error as error:
            raise BackupFailed(f"SQLite could not restore {source}: {error}") from None


def _check(backup: sqlite3.Connection, *, source: Path) -> None:
    try:
        verdict = backup.execute("PRAGMA quick_check").fetchone()[0]
        migrations = backup.execute("SELECT 1 FROM sqlite_master WHERE name = 'django_migrations'").fetchone()
    except sqlite3.DatabaseError as error:
        raise RestoreRefused(f"{source} cannot be read as a SQLite database: {error}") from None
    if verdict != "ok":
        raise RestoreRefused(f"{source} is damaged (SQLite's quick_check: {verdict})")
    if migrations is None:
        raise RestoreRefused(f"{source} is a SQLite database but not one of this platform")


def _open(connection: BaseDatabaseWrapper) -> sqlite3.Connection:
    connection.ensure_connection()
    return connection.connection
