"""What every probe kind shares: the run description handed to it and the result it returns."""

import functools
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.models import RunState
from incidents.outbound.guard import check_sendable


@dataclass(frozen=True)
class RunSpec:
    """A claimed run as plain values, so the event loop never touches the ORM."""

    run_id: int
    probe_id: int
    metric_id: int
    kind: str
    url: str
    config: dict
    unit: str
    connect_timeout: float
    read_timeout: float
    timeout: float
    scheduled_at: float  # epoch seconds
    deadline: float  # epoch seconds
    abandon_after: float  # epoch seconds
    target: str
    host: str
    nonce: str | None = None
    webhook_secret: str = ""
    public_id: str = ""
    region: str = ""


@dataclass
class Measurement:
    state: RunState
    value: float | None = None
    detail: str = ""
    # Webhook round-trips: the canary went out, the receiver will finish the run.
    awaiting_receipt: bool = False


@dataclass
class RunResult:
    """A finished run, written in batches by the result writer."""

    spec: RunSpec
    state: RunState
    started_at: float | None
    finished_at: float
    value: float | None = None
    detail: str = ""
    extra: dict = field(default_factory=dict)


def elapsed_in_unit(seconds: float, unit: str) -> float:
    """A duration in the metric's unit (seconds for `s`, milliseconds otherwise)."""
    return round(seconds, 4) if unit == "s" else round(seconds * 1000.0, 2)


# Both are asked for every run of every probe (dispatch and claim) with the same few URLs.
@functools.lru_cache(maxsize=65536)
def target_of(url: str) -> str:
    """The circuit-breaker key of a URL: scheme, host, port and path (no query or fragment)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.lower()}{parts.path or '/'}"[:500]


@functools.lru_cache(maxsize=65536)
def host_of(url: str) -> str:
    return urlsplit(url).netloc.lower()


def spec_of_dict(values: dict) -> RunSpec:
    """A RunSpec from a run as sent to another region (plain values, no target or host)."""
    return RunSpec(**values, target=target_of(values["url"]), host=host_of(values["url"]))


def validate_target_url(url: str, *, field_name: str = "url") -> None:
    """An http(s) URL with an allowed host name. The rest of its shape and its address are
    checked by `validate_probe` when the URL changes, and the address by the client at every run."""
    if not url:
        raise ValidationError({field_name: _("This kind of probe needs a URL.")})
    try:
        check_sendable(url)
    except ValidationError as error:
        raise ValidationError({field_name: error.messages}) from None


def known_settings(config: object, known: set[str]) -> dict:
    """`config` when it is a JSON object holding no setting outside `known`."""
    if not isinstance(config, dict):
        raise ValidationError({"config": _("The settings must be a JSON object.")})
    unknown = sorted(set(config) - known)
    if unknown:
        raise ValidationError(
            {
                "config": _("Unknown settings: %(keys)s. Known: %(known)s.")
                % {"keys": ", ".join(unknown), "known": ", ".join(sorted(known))}
            }
        )
    return config


def validate_headers(headers: object) -> None:
    if not isinstance(headers, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and "\n" not in k + v for k, v in headers.items()
    ):
        raise ValidationError({"config": _("Headers must map header names to single-line texts.")})


def json_path_get(document: object, path: str) -> object:
    """Follows a dotted path with optional [index] parts (`data.queues[0].lag`) into JSON."""
    current = document
    for part in path.replace("[", ".[").split("."):
        if not part:
            continue
        if part.startswith("[") and part.endswith("]"):
            if not isinstance(current, list):
                raise KeyError(path)
            current = current[int(part[1:-1])]
        else:
            if not isinstance(current, dict) or part not in current:
                raise KeyError(path)
            current = current[part]
    return current


def validate_json_path(path: object, *, key: str) -> None:
    if not isinstance(path, str) or not path.strip():
        raise ValidationError({"config": _("%(key)s must be a path such as data.lag.") % {"key": key}})
    try:
        json_path_get({}, path)
    except KeyError:
        pass
    except (ValueError, IndexError):
        raise ValidationError({"config": _("%(key)s is not a valid path.") % {"key": key}}) from None
