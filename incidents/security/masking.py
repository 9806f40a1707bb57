"""Credentials in probe settings: masked wherever they are read back (the API, the audit trail).

A masked value is a keyed digest, so a reader still sees whether two versions carried the same
credential, and cannot check it against guesses without the SECRET_KEY. Sending a masked value
back (a client that PATCHes what it read) keeps the stored credential.
"""

import re

from django.utils.crypto import salted_hmac

# Names of settings and headers whose values are credentials.
SECRET_NAME = re.compile(r"auth|token|secret|key|cookie|passw|signature|credential", re.IGNORECASE)
MASK_PREFIX = "••••"


def mask_secret(value: object) -> str:
    return MASK_PREFIX + salted_hmac("probe-audit-header", str(value), algorithm="sha1").hexdigest()[:8]


def is_masked(value: object) -> bool:
    return isinstance(value, str) and value.startswith(MASK_PREFIX)


def masked_config(config: object) -> object:
    """A copy of `config` with the value of every credential-named key masked, at any depth."""
    if isinstance(config, dict):
        return {
            name: mask_secret(value)
            if SECRET_NAME.search(str(name)) and not isinstance(value, dict | list)
            else masked_config(value)
            for name, value in config.items()
        }
    if isinstance(config, list):
        return [masked_config(item) for item in config]
    return config


def unmasked_config(sent: object, stored: object) -> object:
    """`sent` with each masked value that matches the stored credential at its place replaced by it.

    A masked value that matches nothing stored is left as sent, for validation to refuse.
    """
    if isinstance(sent, dict) and isinstance(stored, dict):
        restored = {}
        for name, value in sent.items():
            kept = stored.get(name)
            if is_masked(value) and kept is not None and mask_secret(kept) == value:
                restored[name] = kept
            else:
                restored[name] = unmasked_config(value, kept)
        return restored
    return sent


def carries_masked_values(config: object) -> bool:
    if isinstance(config, dict):
        return any(carries_masked_values(value) for value in config.values())
    if isinstance(config, list):
        return any(carries_masked_values(item) for item in config)
    return is_masked(config)
