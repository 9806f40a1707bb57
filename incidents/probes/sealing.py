"""Keys of probe regions, and the messages that cross the broker between them and the centre.

Each region has its own key, derived from PROBE_REGION_SECRET (or SECRET_KEY), its name and its
key generation, so the centre keeps no key table and a region holds only its own key. Runs sent
to a region are sealed with its key (Fernet: encrypted and authenticated), so another region
reading that queue learns nothing; results are signed with it, so no region can pass its results
off as another's. The centre also stores a result only for a run it sent to that region.
"""

import base64
import hashlib
import hmac
import json
import time

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings

# A sealed batch older than this is refused: its runs' deadlines have long passed.
SEALED_TTL_SECONDS = 600


class BadSeal(Exception):
    """A message that was not sealed or signed with the key of the region it names."""


def region_key(region: str, generation: int) -> str:
    """The region's key, as handed to its workers (PROBE_REGION_KEY): url-safe base64, 32 bytes."""
    secret = (settings.PROBE_REGION_SECRET or settings.SECRET_KEY).encode()
    raw = hmac.new(secret, f"probe-region:{region}:{generation}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(raw).decode()


def seal(payload: dict, *, key: str) -> str:
    return Fernet(key.encode()).encrypt(json.dumps(payload, separators=(",", ":")).encode()).decode()


def unseal(token: str, *, key: str) -> dict:
    try:
        opened = Fernet(key.encode()).decrypt(token.encode(), ttl=SEALED_TTL_SECONDS)
    except (InvalidToken, ValueError, TypeError) as error:
        raise BadSeal("the runs were not sealed with this region's key") from error
    return json.loads(opened)


def sign(region: str, body: str, *, key: str) -> str:
    return hmac.new(key.encode(), f"{region}\n{body}".encode(), hashlib.sha256).hexdigest()


def signed_body(region: str, results: list[dict], *, key: str) -> tuple[str, str]:
    body = json.dumps({"region": region, "sent_at": time.time(), "results": results}, separators=(",", ":"))
    return body, sign(region, body, key=key)


def verified_results(region: str, body: str, signature: str, *, key: str) -> list[dict]:
    """The results in `body` when `signature` is the region's, else BadSeal."""
    if not isinstance(signature, str) or not hmac.compare_digest(sign(region, body, key=key), signature):
        raise BadSeal(f"results not signed with the key of region {region}")
    document = json.loads(body)
    if document.get("region") != region or not isinstance(document.get("results"), list):
        raise BadSeal("the signed results name another region")
    if time.time() - float(document.get("sent_at", 0)) > SEALED_TTL_SECONDS:
        raise BadSeal("the signed results are too old")
    return document["results"]
