"""Credentials in a probe's URL and settings: written in the document as references to
environment variables (`{env: NAME}`), never as values.

Which values are credentials is the masking rule of incidents.security.masking (every header
value, every credential-named setting, every query value and password of a URL): a value the
audit trail would mask is a value the document may not hold.
"""

import re
from collections.abc import Mapping

from incidents.security.masking import masked_config, masked_url

ENV_KEY = "env"


def is_reference(value: object) -> bool:
    return isinstance(value, dict) and set(value) == {ENV_KEY} and isinstance(value[ENV_KEY], str)


def url_carries_credentials(url: object) -> bool:
    return isinstance(url, str) and masked_url(url) != url


def credential_paths(config: object, prefix: tuple = ()) -> list[tuple]:
    """The paths (keys, list indexes) of the values in `config` that are credentials."""
    return _differing(config, masked_config(config), prefix)


def _differing(value: object, masked: object, prefix: tuple) -> list[tuple]:
    if isinstance(value, dict) and isinstance(masked, dict):
        return [path for key in value for path in _differing(value[key], masked.get(key), (*prefix, key))]
    if isinstance(value, list) and isinstance(masked, list):
        return [path for i, item in enumerate(value) for path in _differing(item, masked[i], (*prefix, i))]
    return [] if value == masked else [prefix]


def variable_name(probe_key: str, *path) -> str:
    """PROBE_PUBLIC_API_LATENCY_P95_HEADERS_AUTHORIZATION for a header of public-api/latency-p95's probe."""
    return re.sub(r"[^A-Z0-9]+", "_", "_".join(["PROBE", probe_key, *map(str, path)]).upper()).strip("_")


def with_references(probe_key: str, url: str, config: dict) -> tuple[object, dict]:
    """The URL and settings as exported: each credential replaced by a reference to a variable."""
    if url_carries_credentials(url):
        url = {ENV_KEY: variable_name(probe_key, "url")}
    for path in credential_paths(config):
        config = _replaced(config, path, {ENV_KEY: variable_name(probe_key, "config", *path)})
    return url, config


def _replaced(value, path: tuple, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replaced(value[head], rest, new)}
    return [_replaced(item, rest, new) if i == head else item for i, item in enumerate(value)]


def references_in(value: object, prefix: tuple = ()) -> list[tuple[tuple, str]]:
    """(path, variable) of every reference in `value`."""
    if is_reference(value):
        return [(prefix, value[ENV_KEY])]
    if isinstance(value, dict):
        return [found for key, item in value.items() for found in references_in(item, (*prefix, key))]
    if isinstance(value, list):
        return [found for i, item in enumerate(value) for found in references_in(item, (*prefix, i))]
    return []


def resolved(value: object, environ: Mapping[str, str], *, missing: str = "") -> object:
    """`value` with each reference replaced by its variable's value (`missing` when it is unset)."""
    if is_reference(value):
        return environ.get(value[ENV_KEY], missing)
    if isinstance(value, dict):
        return {key: resolved(item, environ, missing=missing) for key, item in value.items()}
    if isinstance(value, list):
        return [resolved(item, environ, missing=missing) for item in value]
    return value
