"""manage.py export_site [DIR]: renders the public site into DIR/builds/<stamp>/ and swaps DIR/current."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from incidents.public import snapshot


class Command(BaseCommand):
    help = "Renders every public page, feed and JSON document to static files (see docs/resilience.md)."

    def add_arguments(self, parser):
        parser.add_argument("directory", nargs="?", help="Defaults to STATUS_SNAPSHOT_DIR.")

    def handle(self, *args, directory=None, **options):
        try:
            made = snapshot.export(Path(directory) if directory else None)
        except snapshot.SnapshotFailed as failed:
            raise CommandError(str(failed)) from None
        self.stdout.write(f"snapshot: {made.files} files at {made.generated_at.isoformat()} in {made.folder}")
