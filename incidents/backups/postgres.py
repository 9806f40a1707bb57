"""PostgreSQL backups with pg_dump's custom format and pg_restore, connected as Django's
connection is: its settings go to the tools through libpq's environment variables, so the
password never appears on a command line (where `ps` shows it to every user)."""

import os
import re
import shutil
import subprocess
from pathlib import Path

from django.conf import settings
from django.db.backends.base.base import BaseDatabaseWrapper

from incidents.backups.failures import BackupFailed, RestoreRefused

TOOL_VERSION = re.compile(r"\(PostgreSQL\) (\d+)")


def dump(connection: BaseDatabaseWrapper, *, destination: Path) -> None:
    """Writes the database behind `connection` to `destination` in pg_dump's custom format."""
    pg_dump = _tool("pg_dump")
    server = _server_major(connection)
    client = _tool_major(pg_dump)
    # pg_dump reads servers of its own major version and older ones only.
    if client < server:
        raise BackupFailed(
            f"pg_dump {client} cannot dump a PostgreSQL {server} server: "
            f"install the client tools of version {server} (or newer) first in PATH"
        )
    _run([pg_dump, "--format=custom", f"--file={destination}"], connection=connection)


def load(connection: BaseDatabaseWrapper, *, source: Path) -> None:
    """Replaces the platform's tables in the database behind `connection` by those in `source`,
    in one transaction: a failure leaves the database as it was."""
    pg_restore = _tool("pg_restore")
    listed = subprocess.run(
        [pg_restore, "--list", str(source)],
        capture_output=True,
        text=True,
        timeout=settings.BACKUP_TIMEOUT_SECONDS,
    )
    if listed.returncode != 0:
        raise RestoreRefused(f"{source} cannot be read by {pg_restore}: {listed.stderr.strip()}")
    _run(
        [
            pg_restore,
            "--clean",
            "--if-exists",
            "--no-owner",
            "--single-transaction",
            f"--dbname={connection.settings_dict['NAME']}",
            str(source),
        ],
        connection=connection,
    )


def _run(command: list[str], *, connection: BaseDatabaseWrapper) -> None:
    name = Path(command[0]).name
    try:
        result = subprocess.run(
            command,
            env=_environment(connection),
            capture_output=True,
            text=True,
            timeout=settings.BACKUP_TIMEOUT_SECONDS,
        )
    except subprocess.TimeoutExpired:
        raise BackupFailed(
            f"{name} was stopped after {settings.BACKUP_TIMEOUT_SECONDS} seconds (BACKUP_TIMEOUT_SECONDS)"
        ) from None
    if result.returncode != 0:
        raise BackupFailed(f"{name} failed: {result.stderr.strip()}")


def _environment(connection: BaseDatabaseWrapper) -> dict[str, str]:
    """libpq's variables for the connection's settings, over the inherited ones (which libpq
    reads for Django's own connection too, so both reach the same server)."""
    settings_dict = connection.settings_dict
    _, secrets = connection.client.settings_to_cmd_args_env(settings_dict, [])
    given = {
        "PGHOST": settings_dict.get("HOST"),
        "PGPORT": settings_dict.get("PORT"),
        "PGUSER": settings_dict.get("USER"),
        "PGDATABASE": settings_dict.get("NAME"),
    }
    return os.environ | {name: str(value) for name, value in given.items() if value} | (secrets or {})


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupFailed(
            f"{name} not found in PATH: install PostgreSQL's client tools "
            "(postgresql-client on Debian and Ubuntu) of the server's major version"
        )
    return found


def _tool_major(path: str) -> int:
    result = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
    found = TOOL_VERSION.search(result.stdout)
    if found is None:
        raise BackupFailed(f"{path} --version did not give a PostgreSQL version: {result.stdout.strip()}")
    return int(found.group(1))


def _server_major(connection: BaseDatabaseWrapper) -> int:
    connection.ensure_connection()
    return connection.get_database_version()[0]
