"""Degraded mode: while the database is unreachable, answer public pages from the static snapshot.

The editor, /api/v1/, admin and every write answer 503. Nothing is checked while the database
works; once a view fails to reach it, a reconnect is tried at most every DEGRADED_RECHECK_SECONDS.
"""

import datetime as dt
import logging
import mimetypes
import threading
import time
from pathlib import Path

from django.conf import settings
from django.db import InterfaceError, OperationalError, connections
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from incidents import formatting
from incidents.public import snapshot, snapshot_embeds
from incidents.public.history_filters import normalised_query
from incidents.public.page_numbers import page_number
from incidents.request_context import request_language
from incidents.security.browser_policy import allow_framing

logger = logging.getLogger(__name__)

DATABASE_ERRORS = (OperationalError, InterfaceError)
# Never answered from the snapshot: they need the database to mean anything.
LIVE_ONLY_PREFIXES = ("/editor/", "/api/v1/", "/admin/", "/api/schema/", "/api/docs/")
# Answered by their views whatever the database's state: they do not need it.
WITHOUT_DATABASE = ("/metrics", *snapshot_embeds.WITHOUT_DATABASE)
SNAPSHOT_CONTENT_TYPES = {**snapshot.CONTENT_TYPES, ".css": "text/css", ".js": "text/javascript"}


class DatabaseState:
    """Whether this process last found the database unreachable, and when it last tried."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.down_since: float | None = None
        self.checked_at = 0.0

    def mark_down(self) -> None:
        with self._lock:
            now = time.monotonic()
            if self.down_since is None:
                logger.warning("database unreachable: answering from the snapshot")
                self.down_since = now
            self.checked_at = now

    def is_down(self) -> bool:
        if self.down_since is None:
            return False
        with self._lock:
            if time.monotonic() - self.checked_at < settings.DEGRADED_RECHECK_SECONDS:
                return True
            self.checked_at = time.monotonic()
        if database_reachable():
            logger.warning("database reachable again: live pages")
            self.down_since = None
            return False
        return True


def database_reachable() -> bool:
    connection = connections["default"]
    try:
        connection.close_if_unusable_or_obsolete()
        connection.ensure_connection()
        return True
    except DATABASE_ERRORS:
        try:
            connection.close()
        except DATABASE_ERRORS:
            pass
        return False


state = DatabaseState()


class DegradedModeMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info
        if state.is_down() and not (path.startswith(settings.STATIC_URL) or path in WITHOUT_DATABASE):
            return degraded_response(request)
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, DATABASE_ERRORS):
            state.mark_down()
            return degraded_response(request)
        return None


def degraded_response(request) -> HttpResponse:
    language = request_language(request)
    with translation.override(language):
        if request.method in ("GET", "HEAD") and not request.path_info.startswith(LIVE_ONLY_PREFIXES):
            response = _from_snapshot(request, language)
            if response is not None:
                return response
        return unavailable(request)


def unavailable(request) -> HttpResponse:
    message = _(
        "The status page cannot reach its database right now, so changes cannot be saved. "
        "Nothing was changed; please try again in a minute."
    )
    if request.path_info.startswith("/api/"):
        response = JsonResponse({"detail": message, "code": "database_unavailable"}, status=503)
    else:
        response = HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = "30"
    response["Cache-Control"] = "no-store"
    return response


def _from_snapshot(request, language: str) -> HttpResponse | None:
    folder = snapshot.current_folder()
    if folder is None:
        return None
    path = request.path_info
    generated_at = snapshot.read_manifest(folder)["generated_at"]
    badge = snapshot_embeds.badge_from(folder, path, request.GET)
    if badge is not None:
        svg, status = badge
        answer = HttpResponse(svg, status=status, content_type="image/svg+xml; charset=utf-8")
        return _snapshot_response(answer, generated_at=generated_at, language=language)
    relative = snapshot_embeds.embed_file(path, request.GET)
    if relative is None:
        if not translation.get_language_from_path(path) and language != settings.LANGUAGE_CODE:
            path = f"/{language}{path}"
        relative = snapshot.file_for(path, page=page_number(request.GET.get("page", "")))
    status = 200
    file = _inside(folder, relative)
    if file is None or not file.is_file():
        file = _inside(folder, snapshot.file_for(f"{snapshot.prefix(language)}/404.html"))
        status = 404
        if file is None or not file.is_file():
            return None
    body = file.read_bytes()
    if file.suffix == ".html":
        note = _degraded_note(generated_at, language, filtered=_asks_for_filter(request))
        body = body.replace(snapshot.NOTE_MARKER.encode(), note.encode(), 1)
    content_type = SNAPSHOT_CONTENT_TYPES.get(file.suffix) or mimetypes.guess_type(file.name)[0]
    response = HttpResponse(body, status=status, content_type=content_type or "application/octet-stream")
    if path == snapshot_embeds.WIDGET and status == 200:
        allow_framing(response)
    return _snapshot_response(response, generated_at=generated_at, language=language)


def _snapshot_response(response: HttpResponse, *, generated_at: str, language: str) -> HttpResponse:
    response["X-Status-Snapshot"] = generated_at
    response["Cache-Control"] = "public, max-age=5"
    response["Content-Language"] = language
    return response


def _inside(folder: Path, relative: str) -> Path | None:
    candidate = (folder / relative).resolve()
    return candidate if candidate.is_relative_to(folder.resolve()) else None


def _asks_for_filter(request) -> bool:
    """Whether the query narrows the page: the snapshot holds only unfiltered ones, so the note
    says the filter was not applied."""
    return normalised_query(request.GET) != ""


def _degraded_note(generated_at: str, language: str, *, filtered: bool) -> str:
    stamp = dt.datetime.fromisoformat(generated_at)
    context = {"updated": formatting.format_datetime(stamp, language), "filtered": filtered}
    return render_to_string("public/_degraded_note.html", context)
