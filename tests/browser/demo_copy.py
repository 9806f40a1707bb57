"""A test process's copy of its database right after its first demo load.

Loading the demo costs seconds (90 days of synthetic measurements); restoring a copy costs a
fraction of one. SQLite copies the whole file with its backup API; PostgreSQL copies every table
with COPY in binary form and puts the sequences back where the load left them.
"""

import sqlite3

from django.apps import apps
from django.core.management.color import no_style
from django.db import connection, transaction


class SqliteCopy:
    def __init__(self) -> None:
        connection.ensure_connection()
        self._copy = sqlite3.connect(":memory:", check_same_thread=False)
        connection.connection.backup(self._copy)

    def restore(self) -> None:
        connection.ensure_connection()
        self._copy.backup(connection.connection)


class PostgresCopy:
    def __init__(self) -> None:
        self._tables = {
            table: _copy_out(table)
            for table in connection.introspection.table_names()
            if table != "django_migrations"
        }

    def restore(self) -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"TRUNCATE {', '.join(map(_quoted, self._tables))} CASCADE")
            for table, data in self._tables.items():
                with cursor.cursor.copy(f"COPY {_quoted(table)} FROM STDIN (FORMAT BINARY)") as copy:
                    copy.write(data)
            for statement in connection.ops.sequence_reset_sql(no_style(), apps.get_models()):
                cursor.execute(statement)


def _copy_out(table: str) -> bytes:
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY {_quoted(table)} TO STDOUT (FORMAT BINARY)") as copy:
            return b"".join(bytes(block) for block in copy)


def _quoted(table: str) -> str:
    return connection.ops.quote_name(table)


def copy_of_database() -> SqliteCopy | PostgresCopy | None:
    """A copy of the current test database, or None where no fast copy is known."""
    return {"sqlite": SqliteCopy, "postgresql": PostgresCopy}.get(connection.vendor, lambda: None)()
