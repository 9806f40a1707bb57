"""The embeds in the static snapshot, so what other sites show keeps answering while the database
is down. An embed's `lang` becomes a folder (`/widget/?lang=ru&theme=dark` -> `ru/widget/dark.html`).
Badges come in too many themes and sizes to write: the snapshot keeps their texts (`badges.json`)
for degraded mode to draw, and the default badges as files for a static server.
"""

import json
import re
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path

from django.conf import settings
from django.utils import translation

from incidents.models import Component
from incidents.public import badges
from incidents.translation import known_or_default, language_codes

BADGE_TEXTS = "badges.json"
WIDGET = "/widget/"
# Embeds that never read the database: answered live whatever its state.
WITHOUT_DATABASE = ("/robots.txt", "/widget.js")
BADGE = re.compile(r"/(?:components/(?P<slug>[-a-zA-Z0-9_]+)/)?badge\.svg")
CALENDAR = re.compile(r"/(?:components/[-a-zA-Z0-9_]+/)?maintenance\.ics")


def is_embed(path: str) -> bool:
    return (
        path == WIDGET or path in WITHOUT_DATABASE or bool(BADGE.fullmatch(path) or CALENDAR.fullmatch(path))
    )


def _folder(language: str) -> str:
    return "" if language == settings.LANGUAGE_CODE else f"{language}/"


def _widget_file(language: str, theme: str) -> str:
    return f"{_folder(language)}widget/{theme or 'index'}.html"


def embed_urls(component_slugs: list[str]) -> list[tuple[str, str]]:
    """(URL to request, file to write) for robots.txt, widget.js, and per language widgets and calendars."""
    urls = [("/robots.txt", "robots.txt"), ("/widget.js", "widget.js")]
    for language in language_codes():
        for theme in ("", *badges.THEMES):
            urls.append((f"{WIDGET}?lang={language}&theme={theme}", _widget_file(language, theme)))
        calendars = ["/maintenance.ics", *(f"/components/{slug}/maintenance.ics" for slug in component_slugs)]
        urls += [(f"{path}?lang={language}", f"{_folder(language)}{path[1:]}") for path in calendars]
    return urls


def badge_files() -> dict[str, bytes]:
    """What every badge says in every language (`badges.json`), and the default badges as SVG."""
    components = list(Component.objects.order_by("slug"))
    texts: dict[str, dict] = {}
    files: dict[str, bytes] = {}
    for language in language_codes():
        with translation.override(language):
            page = badges.page_badge()
            by_slug = {c.slug: badges.component_badge(c, language=language) for c in components}
            files[f"{_folder(language)}badge.svg"] = badges.render_badge(page).encode()
            for slug, badge in by_slug.items():
                files[f"{_folder(language)}components/{slug}/badge.svg"] = badges.render_badge(badge).encode()
        texts[language] = {
            "page": asdict(page),
            "components": {slug: asdict(badge) for slug, badge in by_slug.items()},
        }
    files[BADGE_TEXTS] = json.dumps(texts, ensure_ascii=False, sort_keys=True).encode()
    return files


def embed_file(path: str, params: Mapping[str, str]) -> str | None:
    """The snapshot file answering the widget or a calendar, or None for any other path."""
    language = known_or_default(params.get("lang", ""))
    if path == WIDGET:
        theme = params.get("theme", "")
        return _widget_file(language, theme if theme in badges.THEMES else "")
    if CALENDAR.fullmatch(path) or path in WITHOUT_DATABASE:
        return f"{_folder(language) if CALENDAR.fullmatch(path) else ''}{path[1:]}"
    return None


def badge_from(folder: Path, path: str, params: Mapping[str, str]) -> tuple[str, int] | None:
    """The badge a URL asks for, drawn from the snapshot's texts, with its status; None for other paths."""
    found = BADGE.fullmatch(path)
    texts_file = folder / BADGE_TEXTS
    if found is None or not texts_file.is_file():
        return None
    texts = json.loads(texts_file.read_text())
    language = known_or_default(params.get("lang", ""))
    texts = texts.get(language) or texts[settings.LANGUAGE_CODE]
    slug = found["slug"]
    known = texts["page"] if slug is None else texts["components"].get(slug)
    badge = badges.Badge(**known) if known else badges.unknown_badge()
    svg = badges.render_badge(badge, theme=params.get("theme", ""), size=params.get("style", ""))
    return svg, 200 if known else 404
