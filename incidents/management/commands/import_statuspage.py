"""manage.py import_statuspage FILE|URL: a Statuspage export entered as records of the past."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from incidents.importers.statuspage.parsing import read_export
from incidents.importers.statuspage.service import import_export
from incidents.importers.statuspage.sources import read_source


class Command(BaseCommand):
    help = (
        "Imports a Statuspage export (incidents.json, summary.json or the manage API's incident "
        "objects) from a file or an http(s) URL as records of the past; a re-run creates nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("source", help="A file path or an http(s) URL.")
        parser.add_argument(
            "--language",
            default=settings.LANGUAGE_CODE,
            help="The language the export's texts are written in (default: the site's).",
        )

    def handle(self, *args, source: str, language: str, **options):
        try:
            result = import_export(read_export(read_source(source)), language=language)
        except ValidationError as error:
            raise CommandError("\n".join(error.messages)) from None
        self.stdout.write(
            f"created incidents={result.incidents} updates={result.updates} "
            f"components={result.components} skipped={result.skipped}"
        )
