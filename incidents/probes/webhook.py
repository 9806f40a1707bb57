"""Webhook round-trip: trigger a canary carrying a nonce, time how long its webhook takes to come back.

Config: {"trigger_method": "POST", "headers": {...}, "nonce_path": "nonce"}. The trigger is
sent to the probe's URL with the JSON body {"nonce": ..., "probe": <public id>}. The monitored
system's webhook reaches /probes/webhook/<probe id>/, signed with HMAC-SHA256 of the raw body
under the probe's secret (header X-Signature-SHA256: hex digest, optionally "sha256=" first).
The receiver finishes the run; a canary not back by the deadline is recorded as a timeout.
"""

import hashlib
import hmac

import aiohttp
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import RunState
from incidents.validation.json_bodies import loads_bounded

from . import http
from .base import (
    Measurement,
    RunSpec,
    json_path_get,
    known_settings,
    validate_headers,
    validate_json_path,
    validate_target_url,
)

KNOWN = {"trigger_method", "headers", "nonce_path"}
SIGNATURE_HEADER = "X-Signature-SHA256"


def validate(probe) -> None:
    validate_target_url(probe.url)
    config = known_settings(probe.config, KNOWN)
    if config.get("trigger_method", "POST") not in ("POST", "PUT", "GET"):
        raise ValidationError({"config": _("The trigger method must be POST, PUT or GET.")})
    validate_headers(config.get("headers", {}))
    validate_json_path(config.get("nonce_path", "nonce"), key="nonce_path")


def sign(secret: str, body: bytes) -> str:
    return hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def signature_is_valid(secret: str, body: bytes, header: str) -> bool:
    # Compared as bytes: compare_digest refuses str holding anything but ASCII with a TypeError.
    given = header.strip().removeprefix("sha256=").encode("utf-8", "surrogateescape")
    return bool(secret) and hmac.compare_digest(sign(secret, body).encode(), given)


def nonce_in(body: bytes, path: str) -> str:
    value = json_path_get(loads_bounded(body), path)
    if not isinstance(value, str) or not value:
        raise ValueError(path)
    return value


async def measure(spec: RunSpec, session: aiohttp.ClientSession) -> Measurement:
    config = spec.config
    status, _body = await http.fetch(
        spec,
        session,
        method=config.get("trigger_method", "POST"),
        headers=config.get("headers") or None,
        json={"nonce": spec.nonce, "probe": spec.public_id},
    )
    if not 200 <= status < 300:
        return Measurement(RunState.FAILED, None, f"trigger answered HTTP {status}")
    return Measurement(RunState.RUNNING, None, "canary sent", awaiting_receipt=True)
