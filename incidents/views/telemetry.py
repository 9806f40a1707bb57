"""/metrics: the platform's health in Prometheus text format, optionally behind a bearer token."""

import hmac

from django.conf import settings
from django.http import HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from incidents.telemetry.exposition import scrape_text


def _authorised(request) -> bool:
    token = settings.METRICS_TOKEN
    if not token:
        return True
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


@never_cache
@require_safe
def metrics(request):
    if not _authorised(request):
        response = HttpResponse(
            "A bearer token is required (METRICS_TOKEN).\n", status=401, content_type="text/plain"
        )
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(scrape_text(), content_type=CONTENT_TYPE_LATEST)
