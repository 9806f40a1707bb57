"""Views of the Statuspage-compatible JSON: language, CORS, caching and conditional GET.

Each representation is built once per (endpoint, language, version) and kept in the cache:
the documents showing live figures under both versions, the others under the content version
(incidents.public.versions); a committed write bumps a version, which invalidates every copy
depending on it at once. The ETag is a digest of the body, so it is right by construction.
"""

import datetime as dt
import hashlib
import json

from django.conf import settings
from django.http import HttpResponse, HttpResponseNotAllowed
from django.utils.cache import get_conditional_response
from django.utils.http import http_date

from incidents.public import statuspage_v2
from incidents.public.page_cache import cache_control, fetch
from incidents.public.versions import page_version_or_none
from incidents.telemetry import instruments
from incidents.translation import current_language

# The documents that show live figures (component statuses, the page indicator).
LIVE_DOCUMENTS = frozenset({"summary", "status", "components"})

CORS_HEADERS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
    "Access-Control-Allow-Headers": "Accept, Accept-Language, If-None-Match, If-Modified-Since",
    "Access-Control-Expose-Headers": "ETag, Last-Modified, Content-Language",
    "Access-Control-Max-Age": "86400",
}


def representation(endpoint: str, language: str) -> dict:
    """The cached body, ETag and Last-Modified of one endpoint in one language."""
    # Without a version the document is built live, under a key nobody shares.
    version = page_version_or_none(live=endpoint in LIVE_DOCUMENTS) or "unavailable"
    key = f"statuspage-v2:{version}:{endpoint}:{language}"

    def build() -> dict:
        instruments.count_render(f"v2-{endpoint}")
        document = statuspage_v2.DOCUMENTS[endpoint](statuspage_v2.Page.load(language))
        body = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
        return {
            "body": body,
            "etag": '"' + hashlib.sha256(body).hexdigest()[:32] + '"',
            "last_modified": epoch_seconds(document["page"]["updated_at"]),
        }

    # One request rebuilds an expired document; the others get the previous one meanwhile.
    return fetch(
        fresh_key=key,
        latest_key=f"statuspage-v2:latest:{endpoint}:{language}",
        timeout=settings.STATUSPAGE_API_CACHE_SECONDS,
        compute=build,
    )


def epoch_seconds(stamp: str) -> int:
    """Whole seconds of a Statuspage timestamp, as HTTP dates carry them."""
    return int(dt.datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.UTC).timestamp())


def endpoint_view(endpoint: str):
    def view(request):
        if request.method == "OPTIONS":
            return _with_headers(HttpResponse(status=204), language=None)
        if request.method not in ("GET", "HEAD"):
            return _with_headers(HttpResponseNotAllowed(["GET", "HEAD", "OPTIONS"]), language=None)
        language = current_language()
        cached = representation(endpoint, language)
        response = HttpResponse(cached["body"], content_type="application/json; charset=utf-8")
        response["ETag"] = cached["etag"]
        if cached["last_modified"]:
            response["Last-Modified"] = http_date(cached["last_modified"])
        conditional = get_conditional_response(
            request, etag=cached["etag"], last_modified=cached["last_modified"], response=response
        )
        return _with_headers(conditional, language=language)

    view.__name__ = f"statuspage_{endpoint.replace('/', '_').replace('-', '_')}"
    view.csrf_exempt = True
    return view


def _with_headers(response: HttpResponse, *, language: str | None) -> HttpResponse:
    for name, value in CORS_HEADERS.items():
        response[name] = value
    response["Cache-Control"] = cache_control(max_age=settings.STATUSPAGE_API_MAX_AGE)
    response["Vary"] = "Accept-Language"
    if language:
        response["Content-Language"] = language
    return response
