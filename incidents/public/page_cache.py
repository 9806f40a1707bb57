"""The rendered public pages, cached per language and dropped on every change that shows.

Every cached page is keyed by a content version. Services call `content_changed()` for any
write a reader could see (incidents, updates, components, postmortems, metrics, samples);
it bumps the version once the transaction commits, so the next request renders afresh
and never reads what the transaction had not yet committed. Old entries simply expire.
"""

import hashlib
import time
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language

from incidents import snapshot_schedule, surge
from statuspage.response_cache import SHAREABLE_VERSION

VERSION_KEY = "public:content-version"
# Bumped like the content version except for new samples: what pages show apart from live values.
STRUCTURE_VERSION_KEY = "public:structure-version"


def _version(key: str) -> int:
    version = cache.get(key)
    if version is None:
        # A fresh start (or an evicted key) begins from the clock, never from an old number.
        cache.add(key, time.time_ns(), timeout=None)
        version = cache.get(key, 0)
    return version


def content_version() -> int:
    return _version(VERSION_KEY)


def content_version_or_none() -> int | None:
    """The content version, or None while the cache server is unreachable (render live then)."""
    return _version_or_none(VERSION_KEY)


def structure_version_or_none() -> int | None:
    """Changes with every write a reader could see except new samples (incidents.overview_frame);
    None while the cache server is unreachable."""
    return _version_or_none(STRUCTURE_VERSION_KEY)


def _version_or_none(key: str) -> int | None:
    try:
        return _version(key)
    except Exception:  # noqa: BLE001 - any cache failure; a saved change must never fail a page
        return None


def _bump_key(key: str) -> None:
    try:
        cache.incr(key)
    except ValueError:
        cache.add(key, time.time_ns(), timeout=None)


def _bump() -> None:
    _bump_key(VERSION_KEY)


def _bump_structure() -> None:
    _bump_key(STRUCTURE_VERSION_KEY)


def content_changed() -> None:
    """Drops every cached public page and document once the current transaction commits.

    It also asks for a new static snapshot (debounced, incidents.snapshot_schedule).
    """
    # Robust: a cache server that is down must not turn a saved change into an error.
    transaction.on_commit(_bump_structure, robust=True)
    transaction.on_commit(_bump, robust=True)
    transaction.on_commit(snapshot_schedule.request_snapshot, robust=True)


def _bump_at_most_every(seconds: int) -> None:
    if cache.add("public:metrics-refresh", 1, timeout=seconds):
        _bump()


def metrics_changed() -> None:
    """Drops cached pages for new samples, at most once per PUBLIC_METRICS_REFRESH_SECONDS.

    Probes record many samples a second; dropping the cache for each would leave it empty
    under load. Live values are therefore at most that many seconds old on a cached page.
    """
    seconds = settings.PUBLIC_METRICS_REFRESH_SECONDS
    transaction.on_commit(lambda: _bump_at_most_every(seconds) if seconds > 0 else _bump())


def no_query(request: HttpRequest) -> str:
    """The key part for a page that reads no query parameter: every query string shares it."""
    return ""


def page_key(request: HttpRequest, version: int, query: str = "") -> str:
    """`query` is the page's normalised query (see cached_page), never the one the reader sent."""
    path = hashlib.sha256(f"{request.path}?{query}".encode()).hexdigest()[:32]
    return f"public:page:{version}:{get_language()}:{path}"


def mark_shareable(request: HttpRequest, version) -> None:
    """Lets statuspage.response_cache keep this response until the content version changes."""
    request.META[SHAREABLE_VERSION] = version


def cache_control(*, max_age: int | None = None) -> str:
    """What browsers and CDNs may do with a public page or document (RFC 5861)."""
    max_age = settings.PUBLIC_MAX_AGE if max_age is None else max_age
    return (
        f"public, max-age={max_age}, "
        f"stale-while-revalidate={settings.PUBLIC_STALE_WHILE_REVALIDATE}, "
        f"stale-if-error={settings.PUBLIC_STALE_IF_ERROR}"
    )


def cached_page(
    view: Callable[..., HttpResponse], *, query: Callable[[HttpRequest], str | None] = no_query
) -> Callable[..., HttpResponse]:
    """Serves a GET from the cache for the page's language, rendering it when missing.

    One request renders an expired page; the others meanwhile get the previous version
    (incidents.surge), so a surge never turns into one render per request.

    Pages are kept under `query(request)`: the parameters the page reads, normalised to known
    values, so tracking tags and made-up values cannot fill the cache with copies. None means
    a value no page is kept for: that request is rendered and nothing is stored. A response
    that says `Cache-Control: no-store` is not stored either.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        seconds = settings.PUBLIC_PAGE_CACHE_SECONDS
        if request.method not in ("GET", "HEAD") or seconds <= 0:
            return view(request, *args, **kwargs)
        version = content_version_or_none()
        if version is None:  # the cache server is down: the page is rendered live
            return view(request, *args, **kwargs)
        normalised = query(request)
        if normalised is None:
            return view(request, *args, **kwargs)
        key = page_key(request, version, normalised)
        rendered: list[HttpResponse] = []

        def render() -> tuple[bytes, dict] | None:
            response = view(request, *args, **kwargs)
            rendered.append(response)
            if response.status_code != 200 or response.streaming or _says_no_store(response):
                return None
            if hasattr(response, "render"):
                response.render()
            headers = {
                name: response[name]
                for name in ("Content-Type", "Last-Modified", "Content-Language", "ETag")
                if response.has_header(name)
            }
            return (response.content, headers)

        stored = surge.fetch(fresh_key=key, latest_key=latest_key(key), timeout=seconds, compute=render)
        if rendered and stored is None:
            return rendered[0]
        if stored is None:  # nothing cached and the winner's page was not cacheable
            return view(request, *args, **kwargs)
        content, headers = stored
        if request.META.get("QUERY_STRING", "") == normalised:
            # The response cache keys by the query string as sent: it keeps canonical URLs only.
            mark_shareable(request, version)
        response = HttpResponse(content)
        for name, value in headers.items():
            response[name] = value
        # Browsers revalidate every time (a 304 from the ETag costs little), so a reader who
        # just published never sees the old page; CDNs keep it briefly (RFC 9213).
        response["Cache-Control"] = "public, no-cache"
        response["CDN-Cache-Control"] = cache_control()
        return response

    wrapper.uncached = view
    return wrapper


def _says_no_store(response: HttpResponse) -> bool:
    return "no-store" in response.get("Cache-Control", "")


def latest_key(key: str) -> str:
    """The key of the newest copy of a page whatever its content version (the stale fallback)."""
    _prefix, _kind, _version, rest = key.split(":", 3)
    return f"public:latest:{rest}"
