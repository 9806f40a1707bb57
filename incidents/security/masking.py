"""Credentials in probe settings: masked wherever they are read back (the editor, the API, the
admin, the audit trail).

Every header value, every value of a credential-named setting and every value in the URL's query
string (and a password in the URL) is write-only: a header named `Session` or `X-Honeycomb-Team`
carries a credential as surely as `Authorization` does. A masked value is a keyed digest, so a
reader still sees whether two versions carried the same credential, and cannot check it against
guesses without the SECRET_KEY. Sending a masked value back (an editor saved without retyping,
a client that PATCHes what it read) keeps the stored credential.
"""

import re
from urllib.parse import unquote_plus, urlsplit, urlunsplit

from django.utils.crypto import salted_hmac

from incidents.models import AuditEvent, Subject

# Names of settings whose values are credentials.
SECRET_NAME = re.compile(r"auth|token|secret|key|cookie|passw|signature|credential", re.IGNORECASE)
# Settings that map names to values sent as they are (HTTP headers): every value is masked.
HEADER_MAPS = frozenset({"headers"})
MASK_PREFIX = "••••"


def mask_secret(value: object) -> str:
    return MASK_PREFIX + salted_hmac("probe-audit-header", str(value), algorithm="sha1").hexdigest()[:8]


def is_masked(value: object) -> bool:
    return isinstance(value, str) and value.startswith(MASK_PREFIX)


def _masked(value: object) -> object:
    """A scalar masked once (a mask read back is not masked again); nothing to hide in an empty one."""
    if value in ("", None) or is_masked(value) or isinstance(value, dict | list):
        return value
    return mask_secret(value)


def masked_config(config: object) -> object:
    """A copy of `config` with every header value and every credential-named value masked, at any depth."""
    if isinstance(config, dict):
        return {
            name: {header: _masked(value) for header, value in headers.items()}
            if name in HEADER_MAPS and isinstance(headers := config[name], dict)
            else _masked(value)
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
            matches = is_masked(value) and kept is not None and mask_secret(kept) == value
            restored[name] = kept if matches else unmasked_config(value, kept)
        return restored
    return sent


def carries_masked_values(config: object) -> bool:
    if isinstance(config, dict):
        return any(carries_masked_values(value) for value in config.values())
    if isinstance(config, list):
        return any(carries_masked_values(item) for item in config)
    return is_masked(config)


def _query_pieces(query: str) -> list[tuple[str, str, str]]:
    """The query's `name=value` pieces as written (percent-encoding kept): (name, "=" or "", value)."""
    return [piece.partition("=") for piece in query.split("&")] if query else []


def _split_password(netloc: str) -> tuple[str, str, str]:
    """(user, password, host) of a URL's authority, the password as written."""
    userinfo, at, host = netloc.rpartition("@")
    if not at:
        return "", "", netloc
    user, _colon, password = userinfo.partition(":")
    return user, password, host


def _authority(user: str, password: str, host: str) -> str:
    if password:
        return f"{user}:{password}@{host}"
    return f"{user}@{host}" if user else host


def masked_url(url: str) -> str:
    """`url` with every query value and a password masked; its scheme, host and path as they are."""
    if not url:
        return url
    parts = urlsplit(url)
    query = "&".join(
        name + equals + str(_masked(unquote_plus(value)))
        for name, equals, value in _query_pieces(parts.query)
    )
    user, password, host = _split_password(parts.netloc)
    netloc = _authority(user, str(_masked(unquote_plus(password))), host)
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _restored(sent: str, stored: list[str]) -> str:
    """A value as sent, or the stored value (as written) whose mask it is."""
    shown = unquote_plus(sent)
    if not is_masked(shown):
        return sent
    return next((value for value in stored if mask_secret(unquote_plus(value)) == shown), sent)


def unmasked_url(sent: str, stored: str) -> str:
    """`sent` with each masked query value (and password) that matches a stored one of the same
    name replaced by it; a mask that matches nothing is left for validation to refuse."""
    if not url_carries_masked_values(sent) or not stored:
        return sent
    parts, kept = urlsplit(sent), urlsplit(stored)
    kept_values: dict[str, list[str]] = {}
    for name, _equals, value in _query_pieces(kept.query):
        kept_values.setdefault(name, []).append(value)
    query = "&".join(
        name + equals + _restored(value, kept_values.get(name, []))
        for name, equals, value in _query_pieces(parts.query)
    )
    user, password, host = _split_password(parts.netloc)
    password = _restored(password, [_split_password(kept.netloc)[1]])
    return urlunsplit((parts.scheme, _authority(user, password, host), parts.path, query, parts.fragment))


def url_carries_masked_values(url: str) -> bool:
    return MASK_PREFIX in unquote_plus(url or "")


def masked_probe_fields(values: dict) -> dict:
    """Probe fields (some or all) as anyone may read them back: an audit event's values, a form."""
    masked = dict(values)
    if "config" in masked:
        masked["config"] = masked_config(masked["config"] or {})
    if "url" in masked:
        masked["url"] = masked_url(masked["url"] or "")
    return masked


def readable_audit_values(event: AuditEvent) -> tuple[dict, dict]:
    """An audit event's before and after as anyone may read them: a probe's credentials masked,
    also in events stored before every header and query value was."""
    before, after = event.before or {}, event.after or {}
    if event.subject_type == Subject.PROBE:
        return masked_probe_fields(before), masked_probe_fields(after)
    return before, after
