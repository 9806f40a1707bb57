"""manage.py restore PATH [--yes]: replaces the configured database's contents by a backup."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS

from incidents.backups.failures import BackupFailed
from incidents.backups.service import restore_database


class Command(BaseCommand):
    help = "Restores a backup made by manage.py backup into the database of the same engine (see docs/operations.md)."

    def add_arguments(self, parser):
        parser.add_argument("path", help="The backup file.")
        parser.add_argument(
            "--yes", action="store_true", help="Replace the data the database holds (refused without it)."
        )
        parser.add_argument(
            "--database", default=DEFAULT_DB_ALIAS, help="The database alias to restore into."
        )

    def handle(self, *args, path, yes=False, database=DEFAULT_DB_ALIAS, **options):
        try:
            restored = restore_database(Path(path), replace_data=yes, using=database)
        except BackupFailed as failed:
            raise CommandError(str(failed)) from None
        self.stdout.write(
            f"restored {restored.path} into the database {restored.database}; "
            "public pages cached before the restore will not be served again"
        )
        if lacking := restored.unapplied_migrations:
            self.stdout.write(
                f"the backup lacks {lacking} {'migration' if lacking == 1 else 'migrations'} of this version: "
                "run manage.py migrate"
            )
