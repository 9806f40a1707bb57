"""HTTP check: method, URL, headers, expected status codes, optional body text; measures latency.

Config: {"method": "GET", "headers": {...}, "expected_status": [200], "body_contains": "ok"}.
Redirects are not followed: a redirect could lead to an address the guard would refuse.
"""

import time

import aiohttp
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import RunState

from .base import (
    Measurement,
    RunSpec,
    elapsed_in_unit,
    known_settings,
    validate_headers,
    validate_target_url,
)

METHODS = {"GET", "HEAD", "POST"}
KNOWN = {"method", "headers", "expected_status", "body_contains"}


def validate(probe) -> None:
    validate_target_url(probe.url)
    config = known_settings(probe.config, KNOWN)
    if config.get("method", "GET") not in METHODS:
        raise ValidationError({"config": _("The method must be GET, HEAD or POST.")})
    validate_headers(config.get("headers", {}))
    expected = config.get("expected_status", [])
    if not isinstance(expected, list) or not all(
        isinstance(code, int) and not isinstance(code, bool) and 100 <= code <= 599 for code in expected
    ):
        raise ValidationError({"config": _("Expected status codes must be a list of codes (100 to 599).")})
    if not isinstance(config.get("body_contains", ""), str):
        raise ValidationError({"config": _("The expected body text must be a text.")})


def status_is_expected(status: int, expected: list[int]) -> bool:
    return status in expected if expected else 200 <= status < 400


async def fetch(spec: RunSpec, session: aiohttp.ClientSession, *, method: str = "GET", url: str = "", **kw):
    """One request with the probe's connect and read timeouts; returns (status, body bytes)."""
    timeout = aiohttp.ClientTimeout(
        total=spec.timeout, sock_connect=spec.connect_timeout, sock_read=spec.read_timeout
    )
    async with session.request(
        method, url or spec.url, timeout=timeout, allow_redirects=False, **kw
    ) as response:
        body = await response.content.read(settings.PROBE_MAX_RESPONSE_BYTES)
        return response.status, body


async def measure(spec: RunSpec, session: aiohttp.ClientSession) -> Measurement:
    config = spec.config
    started = time.perf_counter()
    status, body = await fetch(
        spec, session, method=config.get("method", "GET"), headers=config.get("headers") or None
    )
    latency = elapsed_in_unit(time.perf_counter() - started, spec.unit)
    if not status_is_expected(status, config.get("expected_status", [])):
        return Measurement(RunState.FAILED, latency, f"HTTP {status}")
    needle = config.get("body_contains", "")
    if needle and needle.encode() not in body:
        return Measurement(RunState.FAILED, latency, f"HTTP {status}, expected text missing")
    return Measurement(RunState.OK, latency, f"HTTP {status}")
