"""Backing up the configured database to a file and restoring one into it.

A backup is engine-specific (SQLite's own database file, or pg_dump's custom archive) and
restores only into the engine that made it. A restore replaces the platform's data as a whole
and then drops every cached public page, which showed the data it replaced.
"""

from dataclasses import dataclass
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from incidents.backups import files, postgres, sqlite
from incidents.backups.failures import BackupFailed, RestoreRefused
from incidents.models import ProbeRegion
from incidents.public.versions import content_changed, live_changed

TOOLS = {files.SQLITE: sqlite, files.POSTGRESQL: postgres}


@dataclass(frozen=True)
class Backup:
    path: Path
    size: int
    engine: str


@dataclass(frozen=True)
class Restore:
    path: Path
    engine: str
    database: str
    # Migrations of this version of the platform that the restored database has not had.
    unapplied_migrations: int


def back_up_database(*, output: Path | None = None, using: str = DEFAULT_DB_ALIAS) -> Backup:
    """Writes a consistent backup of the database to `output` (default: a timestamped file in
    BACKUP_DIR), under a temporary name until it is complete."""
    connection = connections[using]
    engine = _engine(connection)
    try:
        path = files.backup_path(engine=engine, output=output, now=timezone.now())
        with files.written_in_place(path) as partial:
            TOOLS[engine].dump(connection, destination=partial)
        return Backup(path=path, size=path.stat().st_size, engine=engine)
    except OSError as error:  # a folder not writable, a full disk
        raise BackupFailed(str(error)) from None


def restore_database(source: Path, *, replace_data: bool, using: str = DEFAULT_DB_ALIAS) -> Restore:
    """Replaces the database's contents by the backup in `source`. Refused when the file is not a
    backup of this engine, or when the database holds data and `replace_data` is not given."""
    connection = connections[using]
    engine = _engine(connection)
    try:
        found = files.engine_of(source)
    except OSError as error:  # a file not readable
        raise RestoreRefused(str(error)) from None
    if found != engine:
        raise RestoreRefused(
            f"{source} is a {files.ENGINE_NAMES[found]} backup and the configured database is "
            f"{files.ENGINE_NAMES[engine]}: a backup restores only into the engine that made it"
        )
    if not replace_data and holds_data(connection):
        raise RestoreRefused(
            f"the database {_name(connection)} holds data that the restore would replace: "
            "run it again with --yes to replace it"
        )
    TOOLS[engine].load(connection, source=source)
    # Nothing rendered from the replaced data may be served again: the content version keys every
    # cached page, the live version the parts of pages kept under the live figures.
    content_changed()
    live_changed()
    return Restore(
        path=source, engine=engine, database=_name(connection), unapplied_migrations=_unapplied(connection)
    )


def holds_data(connection: BaseDatabaseWrapper) -> bool:
    """Whether a table of the platform's models, or of users, holds a row that `migrate` did not
    write: a freshly migrated database is empty, and restoring into one needs no --yes."""
    tables = set(connection.introspection.table_names())
    for model in [*apps.get_app_config("incidents").get_models(), get_user_model()]:
        if model._meta.db_table not in tables:
            continue
        rows = model._base_manager.using(connection.alias).all()
        if model is ProbeRegion:
            # A migration creates the home region: every database of the platform has it.
            rows = rows.exclude(name=settings.PROBE_HOME_REGION)
        if rows.exists():
            return True
    return False


def _engine(connection: BaseDatabaseWrapper) -> str:
    if connection.vendor not in files.ENGINE_NAMES:
        raise BackupFailed(f"backups are made of SQLite and PostgreSQL databases, not {connection.vendor}")
    return connection.vendor


def _name(connection: BaseDatabaseWrapper) -> str:
    return str(connection.settings_dict["NAME"])


def _unapplied(connection: BaseDatabaseWrapper) -> int:
    executor = MigrationExecutor(connection)
    return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
