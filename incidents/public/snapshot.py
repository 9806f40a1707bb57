"""The static snapshot of the public site: every page in every language, feeds, JSON, assets.

Pages are rendered in-process into `builds/<stamp>/`, and the `current` symlink is swapped to
it with one rename, so a reader (nginx, a CDN, degraded mode) never sees half a snapshot. A page
of an object deleted meanwhile drops out; any other server error keeps the previous snapshot,
since nginx and degraded mode would serve one without its overview or an incident's page.
"""

import datetime as dt
import hashlib
import json
import logging
import os
import re
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.test import Client
from django.utils import timezone, translation

from incidents import formatting, selectors
from incidents.models import Component, Incident
from incidents.public import snapshot_embeds, statuspage_v2, versions
from incidents.translation import language_codes

logger = logging.getLogger(__name__)

NOTE_MARKER = "<!--status-snapshot-note-->"
MANIFEST = "manifest.json"
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".json": "application/json; charset=utf-8",
    ".atom": "application/atom+xml; charset=utf-8",
    ".rss": "application/rss+xml; charset=utf-8",
    ".svg": "image/svg+xml",
    ".ics": "text/calendar; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}


# Asked for in every language to save the site's 404 page (`<lang>/404.html`).
NOT_FOUND_PATH = "/snapshot-page-not-found/"


class _ExpectedNotFound(logging.Filter):
    """Hides the 404 warnings the export asks for on purpose (most of `make run`'s log otherwise)."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        expected = request is not None and request.path.endswith(NOT_FOUND_PATH)
        return not (expected and getattr(record, "status_code", None) == 404)


class SnapshotFailed(Exception):
    """A page that belongs in the snapshot answered with a server error; `current` was kept."""

    def __init__(self, url: str, status: int):
        super().__init__(f"{url} answered {status}: the previous snapshot stays current")
        self.url = url
        self.status = status


@dataclass(frozen=True)
class Snapshot:
    folder: Path
    generated_at: dt.datetime
    files: int


def root() -> Path:
    return Path(settings.STATUS_SNAPSHOT_DIR)


def current_folder() -> Path | None:
    """The folder the `current` symlink points to, or None before the first export."""
    link = root() / "current"
    target = link.resolve() if link.is_symlink() else None
    return target if target and (target / MANIFEST).is_file() else None


def read_manifest(folder: Path) -> dict:
    return json.loads((folder / MANIFEST).read_text())


def is_behind() -> bool:
    """True when the site changed since this node's snapshot was rendered, or there is none."""
    folder = current_folder()
    return folder is None or read_manifest(folder).get("content_version") != _content_version()


def _content_version() -> int | None:
    try:
        return versions.content_version()
    except Exception:  # the cache is down: a snapshot now is made all the same, and rendered again after
        logger.warning("snapshot: the content version could not be read", exc_info=True)
        return None


def prefix(language: str) -> str:
    return "" if language == settings.LANGUAGE_CODE else f"/{language}"


def file_for(path: str, *, page: int | None = None) -> str:
    """The snapshot file of a URL path: `/x/` -> `x/index.html`, `/history/?page=N` ->
    `history/page/N/index.html`, `/x.atom` -> `x.atom`."""
    relative = path.lstrip("/")
    if page and page > 1 and relative.endswith("history/"):
        relative = f"{relative}page/{page}/"
    if relative == "" or relative.endswith("/"):
        relative += "index.html"
    return relative


def public_urls() -> list[tuple[str, str]]:
    """(URL to request, file to write) for every public page, feed and document."""
    # The icon in the colour of the moment the snapshot was made (pages ask for it by ?status=,
    # which a static server ignores).
    urls: list[tuple[str, str]] = [("/favicon.svg", "favicon.svg")]
    components = list(Component.objects.order_by("slug").values_list("slug", flat=True))
    incidents = list(Incident.objects.published().order_by("pk").values_list("slug", flat=True))
    history_pages = selectors.history(
        component=None, page=1, page_size=settings.PUBLIC_HISTORY_PAGE_SIZE
    ).paginator.num_pages
    for language in language_codes():
        base = prefix(language)
        paths = ["/", "/history/", "/uptime/", "/maintenance/", "/history.atom", "/history.rss"]
        paths += [f"/incidents/{slug}/" for slug in incidents]
        paths += [
            f"/components/{slug}/{end}" for slug in components for end in ("", "history.atom", "history.rss")
        ]
        urls += [(base + path, file_for(base + path)) for path in paths]
        urls += [
            (f"{base}/history/?page={number}", file_for(f"{base}/history/", page=number))
            for number in range(2, history_pages + 1)
        ]
        # The JSON documents per language: ?lang= on the app, a folder in the snapshot.
        for endpoint in statuspage_v2.DOCUMENTS:
            target = f"api/v2/{endpoint}.json" if not base else f"{language}/api/v2/{endpoint}.json"
            urls.append((f"/api/v2/{endpoint}.json?lang={language}", target))
    return urls + snapshot_embeds.embed_urls(components)


def _client() -> Client:
    host = next(
        (h for h in settings.ALLOWED_HOSTS if h and "*" not in h and not h.startswith(".")), "localhost"
    )
    return Client(HTTP_HOST=host.strip("[]") if host.startswith("[") else host, raise_request_exception=False)


def _note(generated_at: dt.datetime, language: str) -> str:
    with translation.override(language):
        return render_to_string(
            "public/_snapshot_note.html",
            {
                "updated": formatting.format_datetime(generated_at, language),
                "stamp": generated_at.isoformat(),
            },
        )


def _with_note(body: bytes, generated_at: dt.datetime, language: str) -> bytes:
    html = body.decode()
    return html.replace("</main>", f"{_note(generated_at, language)}{NOTE_MARKER}</main>", 1).encode()


def _language_of(url: str) -> str:
    first = url.lstrip("/").split("/", 1)[0]
    return first if first in language_codes() else settings.LANGUAGE_CODE


OBJECT_PAGE = re.compile(r"^/(?:[a-z]{2}/)?(incidents|components)/([^/]+)/")


def _belongs_in_snapshot(url: str) -> bool:
    """Whether the object a page shows still exists and is public (pages of no object always)."""
    match = OBJECT_PAGE.match(url)
    if match is None:
        return True
    kind, slug = match.groups()
    if kind == "incidents":
        return Incident.objects.published().filter(slug=slug).exists()
    return Component.objects.filter(slug=slug).exists()


def _copy_static(folder: Path) -> int:
    """The static assets, under the same names the pages link to (hashed when collected)."""
    target = folder / settings.STATIC_URL.strip("/")
    copied = 0
    for finder in finders.get_finders():
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            destination = target / path
            if not destination.exists():
                destination.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(storage.path(path), destination)
                copied += 1
    collected = Path(settings.STATIC_ROOT)
    if collected.is_dir() and any(collected.iterdir()):
        shutil.copytree(collected, target, dirs_exist_ok=True)
    return copied


def export(destination: Path | None = None) -> Snapshot:
    """Renders the public site into a new folder and makes it current (one rename)."""
    generated_at = timezone.now().replace(microsecond=0)
    # Read before rendering: a change made meanwhile leaves this snapshot behind, and it follows.
    content_version = _content_version()
    base = root() if destination is None else Path(destination)
    builds = base / "builds"
    folder = builds / f"{generated_at:%Y%m%dT%H%M%SZ}-{uuid.uuid4().hex[:6]}"
    folder.mkdir(parents=True, mode=0o755)
    client = _client()
    files: dict[str, dict] = {}

    def write(relative: str, body: bytes) -> None:
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
        files[relative] = {
            "bytes": len(body),
            "sha256": hashlib.sha256(body).hexdigest(),
            "content_type": CONTENT_TYPES.get(path.suffix, "application/octet-stream"),
        }

    for url, relative in public_urls():
        response = client.get(url, secure=not settings.LOCAL_RUN)
        if response.status_code >= 500 and _belongs_in_snapshot(url):
            shutil.rmtree(folder, ignore_errors=True)
            raise SnapshotFailed(url, response.status_code)
        if response.status_code != 200:
            logger.warning("snapshot: %s answered %s, left out", url, response.status_code)
            continue
        body = response.content
        if relative.endswith(".html"):
            # The file's folder names its language: embeds take theirs from ?lang=.
            body = _with_note(body, generated_at, _language_of(f"/{relative}"))
        write(relative, body)
    for relative, body in snapshot_embeds.badge_files().items():
        write(relative, body)
    quiet, request_log = _ExpectedNotFound(), logging.getLogger("django.request")
    request_log.addFilter(quiet)
    try:
        for language in language_codes():
            response = client.get(f"{prefix(language)}{NOT_FOUND_PATH}", secure=not settings.LOCAL_RUN)
            write(
                file_for(f"{prefix(language)}/404.html"), _with_note(response.content, generated_at, language)
            )
    finally:
        request_log.removeFilter(quiet)
    assets = _copy_static(folder)
    manifest = {
        "generated_at": generated_at.isoformat(),
        "content_version": content_version,
        "languages": language_codes(),
        "default_language": settings.LANGUAGE_CODE,
        "files": files,
        "static_files": assets,
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True))
    _swap(base, folder)
    _prune(builds, keep=settings.STATUS_SNAPSHOT_KEEP, current=folder)
    return Snapshot(folder=folder, generated_at=generated_at, files=len(files))


def _swap(base: Path, folder: Path) -> None:
    # rename(2) replaces the link in one step: readers see the old snapshot or the new one.
    temporary = base / f".current-{uuid.uuid4().hex}"
    os.symlink(folder.relative_to(base), temporary)
    os.replace(temporary, base / "current")


def _prune(builds: Path, *, keep: int, current: Path) -> None:
    # Newest first by when each was written: names share their stamp when exports fall in one second.
    older = sorted(
        (p for p in builds.iterdir() if p.is_dir() and p != current),
        key=lambda p: p.stat().st_mtime_ns,
        reverse=True,
    )
    for stale in older[keep:]:
        shutil.rmtree(stale, ignore_errors=True)
