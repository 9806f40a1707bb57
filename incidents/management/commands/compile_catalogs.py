"""Compiles locale/*/LC_MESSAGES/*.po to .mo with Babel, so no gettext binary is needed."""

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile translation catalogs with Babel (pure Python)."

    def handle(self, *args, **options):
        compiled = 0
        for locale_dir in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
                with po_path.open("rb") as po_file:
                    catalog = read_po(po_file, locale=po_path.parts[-3])
                with po_path.with_suffix(".mo").open("wb") as mo_file:
                    write_mo(mo_file, catalog)
                compiled += 1
        self.stdout.write(f"compiled {compiled} catalogs")
