"""Backup files: where one goes by default, which engine made one, and writing one so that a
half-written backup never sits under a finished backup's name."""

import datetime as dt
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

from incidents.backups.failures import BackupFailed, RestoreRefused

SQLITE = "sqlite"
POSTGRESQL = "postgresql"
ENGINE_NAMES = {SQLITE: "SQLite", POSTGRESQL: "PostgreSQL"}
SUFFIXES = {SQLITE: ".sqlite3", POSTGRESQL: ".pgdump"}
# The first bytes of each engine's file: SQLite's database header, pg_dump's custom archive.
MAGIC = {SQLITE: b"SQLite format 3\x00", POSTGRESQL: b"PGDMP"}


def backup_path(*, engine: str, output: Path | None, now: dt.datetime) -> Path:
    """Where a backup goes: `output`, a timestamped file inside it when it is a folder, or one in
    BACKUP_DIR. An existing file is never overwritten."""
    if output is None:
        settings.BACKUP_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
        output = settings.BACKUP_DIR
    if output.is_dir():
        output = output / f"statuspage-{now:%Y%m%dT%H%M%SZ}{SUFFIXES[engine]}"
    if output.exists():
        raise BackupFailed(f"{output} exists already: give another --output")
    if not output.parent.is_dir():
        raise BackupFailed(f"{output.parent} is not a folder")
    return output


@contextmanager
def written_in_place(path: Path) -> Iterator[Path]:
    """A temporary file beside `path` to write the backup into, renamed to `path` once the block
    ends and the file is on disk; removed if the block fails."""
    # mkstemp's file is readable by its owner only: a backup holds password hashes and addresses.
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".partial")
    os.close(handle)
    partial = Path(name)
    try:
        yield partial
        with partial.open("rb") as written:
            os.fsync(written.fileno())
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    # The rename itself reaches the disk with the folder's entry.
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


def engine_of(path: Path) -> str:
    """The engine whose backup `path` is, told by the file's first bytes."""
    if not path.is_file():
        raise RestoreRefused(f"no backup file at {path}")
    with path.open("rb") as file:
        start = file.read(len(MAGIC[SQLITE]))
    for engine, magic in MAGIC.items():
        if start.startswith(magic):
            return engine
    raise RestoreRefused(
        f"{path} is not a backup made by manage.py backup (neither SQLite nor pg_dump's format)"
    )
