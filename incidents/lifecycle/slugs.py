"""Incident slugs, with Latin letters for titles written in Cyrillic or Greek so they say something."""

import datetime as dt

from django.utils.text import slugify

from incidents.models import Incident

# Cyrillic as the passport system of Russia writes it (ICAO Doc 9303), with the Ukrainian and
# Belarusian letters it lacks; soft and hard signs dropped, as slugs rarely want them.
CYRILLIC = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґў",
        "a b v g d e e zh z i i k l m n o p r s t u f kh ts ch sh shch _ y _ e iu ia i i ie g u".split(),
        strict=True,
    )
)
# Greek by ELOT 743 (ISO 843), letter by letter.
GREEK = dict(
    zip(
        "αβγδεζηθικλμνξοπρσςτυφχψωάέήίόύώϊϋΐΰ",
        "a v g d e z i th i k l m n x o p r s s t y f ch ps o a e i i o y o i y i y".split(),
        strict=True,
    )
)
# Latin letters that Unicode does not decompose into a base letter and an accent.
UNDECOMPOSED = {"æ": "ae", "ø": "o", "œ": "oe", "ß": "ss", "đ": "d", "ł": "l", "þ": "th", "ð": "d"}
LATIN = {
    ord(letter): ("" if latin == "_" else latin)
    for letter, latin in (CYRILLIC | GREEK | UNDECOMPOSED).items()
}


def transliterate(text: str) -> str:
    """The text with Cyrillic and Greek letters in Latin ones; other characters as they were."""
    return "".join(_latin_letter(character) for character in text)


def _latin_letter(character: str) -> str:
    latin = LATIN.get(ord(character.lower()))
    if latin is None:
        return character
    return latin.capitalize() if character.isupper() else latin


def incident_slug(title: str, *, at: dt.datetime) -> str:
    """An incident's slug before any suffix that makes it unique: its day and its title."""
    base = (slugify(transliterate(title))[:60] or "incident").strip("-")
    return f"{at:%Y-%m-%d}-{base}"


def unique_slug(title: str, *, at: dt.datetime) -> str:
    """incident_slug, with a number after it when an incident already has that one."""
    slug = incident_slug(title, at=at)
    candidate, n = slug, 2
    while Incident.objects.filter(slug=candidate).exists():
        candidate, n = f"{slug}-{n}", n + 1
    return candidate
