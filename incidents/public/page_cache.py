"""Rendered public pages, cached per language under the versions they depend on.

Single flight with stale-while-revalidate: the request that wins a short lock renders a missing
page while the others get the latest copy of any version, so a surge after a publish costs one
render; only with no copy at all do they wait (briefly). While the cache is unreachable pages
render live.
"""

import gzip
import hashlib
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware, re_accepts_gzip
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string

from incidents.public import cache_breaker, page_variants, versions
from incidents.telemetry import instruments
from incidents.translation import current_language

logger = logging.getLogger(__name__)

# Longest a render may hold the lock; after that another request may try.
LOCK_SECONDS = 10
# How long the others poll for the winner when there is no previous copy to serve.
WAIT_SECONDS = 5.0
WAIT_STEP = 0.02
# The latest copy outlives the fresh one: it is what the others get during a render.
STALE_SECONDS = 24 * 3600

# Renders by path: what `make bench-site` counts.
renders: Counter[str] = Counter()


def no_query(request: HttpRequest) -> str:
    """The key part for a page that reads no query parameter: every query string shares it."""
    return ""


def page_key(request: HttpRequest, version: str, query: str = "") -> str:
    """`query` is the page's normalised query, never the one the reader sent."""
    # SITE_URL is part of the key: pages hold absolute links, and `make run PORT=8001` after a
    # run on 8000 reads the same cache folder.
    path = hashlib.sha256(f"{settings.SITE_URL}{request.path}?{query}".encode()).hexdigest()[:32]
    # "kept2" names the stored shape (KeptPage): entries of an earlier shape are never read.
    return f"public:kept2:{version}:{current_language()}:{path}"


@dataclass(frozen=True)
class KeptPage:
    """A rendered page as stored: compressed once rather than on every request, with its headers.

    Only the compressed bytes are kept: nearly every reader accepts gzip, and storing the page
    once halves what each render writes to the cache."""

    gzipped: bytes
    headers: dict[str, str]

    def response(self, request: HttpRequest) -> HttpResponse:
        """The page, compressed when the client accepts gzip (GZipMiddleware leaves it alone then)."""
        compressed = bool(re_accepts_gzip.search(request.headers.get("Accept-Encoding", "")))
        response = HttpResponse(self.gzipped if compressed else gzip.decompress(self.gzipped))
        for name, value in self.headers.items():
            response[name] = value
        if compressed:
            response["Content-Encoding"] = "gzip"
            if response.get("ETag", "").startswith('"'):
                response["ETag"] = "W/" + response["ETag"]
        patch_vary_headers(response, ("Accept-Encoding",))
        return response


def keep(response: HttpResponse) -> KeptPage:
    headers = {
        name: response[name]
        for name in ("Content-Type", "Last-Modified", "Content-Language", "ETag")
        if response.has_header(name)
    }
    gzipped = compress_string(response.content, max_random_bytes=GZipMiddleware.max_random_bytes)
    return KeptPage(gzipped=gzipped, headers=headers)


def cache_control(*, max_age: int | None = None) -> str:
    """What browsers and CDNs may do with a public page or document (RFC 5861)."""
    max_age = settings.PUBLIC_MAX_AGE if max_age is None else max_age
    return (
        f"public, max-age={max_age}, "
        f"stale-while-revalidate={settings.PUBLIC_STALE_WHILE_REVALIDATE}, "
        f"stale-if-error={settings.PUBLIC_STALE_IF_ERROR}"
    )


def cached_page(
    view: Callable[..., HttpResponse],
    *,
    query: Callable[[HttpRequest], str | None] = no_query,
    live: bool = False,
) -> Callable[..., HttpResponse]:
    """Serves a GET from the cache for the page's language, rendering it when missing.

    `query(request)` normalises the parameters the page reads, so made-up values cannot fill the
    cache (None: keep nothing); `live` pages are kept under the live version too."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        seconds = settings.PUBLIC_PAGE_CACHE_SECONDS
        if request.method not in ("GET", "HEAD") or seconds <= 0:
            return view(request, *args, **kwargs)
        version = versions.page_version_or_none(live=live)
        if version is None:  # the cache server is down: the page is rendered live
            return view(request, *args, **kwargs)
        normalised = query(request)
        if normalised is None:
            return view(request, *args, **kwargs)
        key = page_key(request, version, normalised)
        stale_seconds = None
        if normalised:
            stale_seconds = page_variants.seconds_left()
            seconds = min(seconds, stale_seconds)
        rendered: list[HttpResponse] = []

        def render() -> KeptPage | None:
            response = view(request, *args, **kwargs)
            renders[request.path] += 1
            instruments.count_render(page_name(request))
            rendered.append(response)
            if (
                response.status_code != 200
                or response.streaming
                or "no-store" in response.get("Cache-Control", "")
            ):
                return None
            if normalised and not page_variants.admit(
                page=f"{current_language()}:{request.path}", query=normalised
            ):
                return None
            if hasattr(response, "render"):
                response.render()
            return keep(response)

        stored = fetch(
            fresh_key=key,
            latest_key=latest_key(key),
            timeout=seconds,
            stale_timeout=stale_seconds,
            compute=render,
        )
        instruments.PAGE_CACHE_REQUESTS.labels(outcome="render" if rendered else "hit").inc()
        if rendered and stored is None:
            return rendered[0]
        if stored is None:  # nothing cached and the winner's page was not cacheable
            return view(request, *args, **kwargs)
        response = stored.response(request)
        # Browsers revalidate every time (a 304 from the ETag costs little), so a reader who
        # just published never sees the old page; CDNs keep it briefly (RFC 9213).
        response["Cache-Control"] = "public, no-cache"
        response["CDN-Cache-Control"] = cache_control()
        return response

    return wrapper


def page_name(request: HttpRequest) -> str:
    """The page's URL name (`overview`, `incident`, `history-atom`…): a label with few values."""
    match = request.resolver_match
    return match.url_name if match is not None and match.url_name else "other"


def latest_key(key: str) -> str:
    """The key of the newest copy of a page whatever its content version (the stale fallback)."""
    _prefix, _kind, _version, rest = key.split(":", 3)
    return f"public:kept2-latest:{rest}"


def fetch(
    *,
    fresh_key: str,
    latest_key: str,
    timeout: int,
    compute: Callable[[], Any | None],
    stale_timeout: int | None = None,
) -> Any | None:
    """The cached value for `fresh_key`, computed by one caller at a time (single flight).

    `compute` returns None for a result not worth keeping (an error page)."""
    if cache_breaker.cache_down():
        return compute()
    lock_key = f"{fresh_key}:lock"
    try:
        value = _stored(fresh_key, latest_key, lock_key)
    except Exception:  # the cache server failed: render live rather than fail the page
        cache_breaker.cache_failed()
        logger.warning("cache unavailable, computing %s uncached", fresh_key, exc_info=True)
        return compute()
    if value is not None:
        return value
    try:
        value = compute()
    except BaseException:
        # A page that raises (a 404 for an unknown slug) must not leave others waiting on the lock.
        _release(lock_key)
        raise
    try:
        if value is not None:
            cache.set(fresh_key, value, timeout=timeout)
            stale = max(STALE_SECONDS, timeout * 10) if stale_timeout is None else stale_timeout
            cache.set(latest_key, value, timeout=stale)
        cache.delete(lock_key)
    except Exception:
        cache_breaker.cache_failed()
        logger.warning("cache unavailable, %s not stored", fresh_key, exc_info=True)
    return value


def _stored(fresh_key: str, latest_key: str, lock_key: str) -> Any | None:
    """The fresh value, else the latest while another request renders; None: this one renders."""
    value = cache.get(fresh_key)
    if value is not None or cache.add(lock_key, 1, timeout=LOCK_SECONDS):
        return value
    stale = cache.get(latest_key)
    return stale if stale is not None else _wait_for(fresh_key)


def _wait_for(fresh_key: str) -> Any | None:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(WAIT_STEP)
        value = cache.get(fresh_key)
        if value is not None:
            return value
    return None


def _release(lock_key: str) -> None:
    try:
        cache.delete(lock_key)
    except Exception:
        logger.warning("cache unavailable, %s not released", lock_key, exc_info=True)
