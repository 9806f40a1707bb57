"""Public identifiers: opaque 12-character base36 strings, as Statuspage clients expect."""

import secrets
import string

ALPHABET = string.digits + string.ascii_lowercase


def new_public_id() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(12))
