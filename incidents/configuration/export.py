"""Reading the configuration out of the database: the rows by key (what a file is compared
with), and the document `config export` writes, credentials replaced by references."""

from dataclasses import dataclass

from django.db import models

from . import credentials
from .document import SECTIONS as ORDER
from .document import VERSION
from .sections import SECTIONS


@dataclass(frozen=True)
class Stored:
    """A row and its entry, credentials as stored (never shown as they are)."""

    row: models.Model
    entry: dict


def stored_rows() -> dict[str, dict[str, Stored]]:
    """Every section's rows by key; of rows sharing a key (alert rules of one name), the first."""
    found: dict[str, dict[str, Stored]] = {}
    for name in ORDER:
        section = SECTIONS[name]
        found[name] = {}
        for row in section.rows():
            entry = section.entry(row)
            found[name].setdefault(section.key(entry), Stored(row, entry))
    return found


def exported_entry(section: str, entry: dict) -> dict:
    if section != "probes":
        return entry
    url, config = credentials.with_references(entry["metric"], entry["url"], entry["config"])
    return {**entry, "url": url, "config": config}


def export_document() -> dict:
    """The configuration as one document: sections in a fixed order, entries sorted by key."""
    document: dict = {"version": VERSION}
    for name in ORDER:
        section = SECTIONS[name]
        entries = sorted((section.entry(row) for row in section.rows()), key=section.key)
        document[name] = [exported_entry(name, entry) for entry in entries]
    return document
