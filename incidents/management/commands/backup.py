"""manage.py backup [--output PATH]: a consistent backup of the configured database."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS

from incidents.backups.failures import BackupFailed
from incidents.backups.service import back_up_database


class Command(BaseCommand):
    help = "Backs up the database: pg_dump on PostgreSQL, SQLite's online backup on SQLite (see docs/operations.md)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--output", help="A file to write, or a folder for a timestamped file. Defaults to BACKUP_DIR."
        )
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="The database alias to back up.")

    def handle(self, *args, output=None, database=DEFAULT_DB_ALIAS, **options):
        try:
            made = back_up_database(output=Path(output) if output else None, using=database)
        except BackupFailed as failed:
            raise CommandError(str(failed)) from None
        self.stdout.write(f"backup: {made.path} ({made.size:,} bytes)")
