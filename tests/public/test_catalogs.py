"""The shipped translation catalogs are complete: a reader never meets an untranslated string."""

from pathlib import Path

from babel.messages.pofile import read_po
from django.conf import settings

LANGUAGES = [code for code, _name in settings.LANGUAGES]


def shipped_catalogs() -> list[Path]:
    return sorted(p for base in settings.LOCALE_PATHS for p in Path(base).glob("*/LC_MESSAGES/django.po"))


CATALOGS = shipped_catalogs()


def test_a_catalog_ships_for_every_language():
    shipped = {path.parts[-3] for path in CATALOGS}
    assert shipped >= set(LANGUAGES)


def test_no_shipped_catalog_has_an_empty_translation():
    assert CATALOGS
    empty = []
    for path in CATALOGS:
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=path.parts[-3])
        for message in catalog:
            if not message.id:
                continue  # the header
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if any(not text.strip() for text in strings) or message.fuzzy:
                empty.append(f"{path.parts[-3]}: {message.id!r}")
    assert empty == []


def test_every_translation_uses_the_placeholders_of_its_message():
    # A translation naming a placeholder its message does not pass (%(email)s for %(address)s)
    # makes Django fall back to English, or a Python format raise, in that language only.
    problems = []
    for path in CATALOGS:
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=path.parts[-3])
        for message, errors in catalog.check():
            problems.extend(f"{path.parts[-3]}: {message.id!r}: {error}" for error in errors)
    assert problems == []
