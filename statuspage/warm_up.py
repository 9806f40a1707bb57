"""What a web process does before its first request: import every view, build the URL tables in
each language, load the translations, Babel's locale data and the templates. Otherwise the first
request that needs each one does it, and in a threaded worker it holds the worker's other
requests up meanwhile: 2 to 3 s on a loaded 2-core machine, long enough for nginx's revalidation
to keep a reader waiting past any client's patience (docs/resilience.md, the load benchmark)."""

import datetime as dt
from pathlib import Path

from django.conf import settings
from django.template import engines
from django.urls import get_resolver
from django.utils import translation

from incidents import formatting

TEMPLATE_SUFFIXES = (".html", ".txt", ".xml")


def warm_up() -> None:
    for language, _name in settings.LANGUAGES:
        with translation.override(language):  # loads the language's catalogs
            _url_tables(language)
            _locale_data(language)
    _templates()


def _url_tables(language: str) -> None:
    resolver = get_resolver()
    resolver.reverse_dict  # noqa: B018 - imports the URLconf and every view, builds the language's table
    resolver.resolve("/" if language == settings.LANGUAGE_CODE else f"/{language}/")


def _locale_data(language: str) -> None:
    now = dt.datetime.now(dt.UTC)
    formatting.format_datetime(now, language)
    formatting.format_duration(dt.timedelta(minutes=90), language)
    formatting.format_measure(1234.5, "ms", language)
    formatting.format_percent(99.95, language)


def _templates() -> None:
    engine = engines["django"]
    for folder in engine.dirs:
        for path in sorted(Path(folder).rglob("*")):
            if path.suffix in TEMPLATE_SUFFIXES:
                engine.get_template(str(path.relative_to(folder)))
