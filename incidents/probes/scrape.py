"""Metric scrape: one number from a Prometheus text endpoint or from a JSON document.

Config, Prometheus: {"format": "prometheus", "metric": "consumer_lag_seconds",
"labels": {"queue": "webhooks"}}. JSON: {"format": "json", "path": "data.delay"}.
The exposition format is parsed with prometheus_client's own parser, given only the lines of
the metric asked for.
"""

import math
import re

import aiohttp
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from prometheus_client.parser import text_string_to_metric_families

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

KNOWN = {"format", "metric", "labels", "path", "headers"}

# prometheus_client's parser takes time quadratic in the length of a line full of escaped quotes,
# and is slow on a long text of short lines: it reads only the sample lines of the metric asked
# for (found in one pass), each at most this long.
MAX_SAMPLE_LINE_CHARS = 4096


def validate(probe) -> None:
    validate_target_url(probe.url)
    config = known_settings(probe.config, KNOWN)
    validate_headers(config.get("headers", {}))
    kind = config.get("format")
    if kind == "prometheus":
        name = config.get("metric")
        if not isinstance(name, str) or not name.strip():
            raise ValidationError({"config": _("A Prometheus scrape needs the metric name.")})
        labels = config.get("labels", {})
        if not isinstance(labels, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in labels.items()
        ):
            raise ValidationError({"config": _("Labels must map label names to values.")})
    elif kind == "json":
        validate_json_path(config.get("path"), key="path")
    else:
        raise ValidationError({"config": _("The format must be prometheus or json.")})


def sample_lines(text: str, name: str) -> str:
    """The lines of `text` that are samples of `name`; ValueError for one too long to parse."""
    lines = re.findall(rf"^{re.escape(name)}[{{ \t][^\n]*", text, re.MULTILINE)
    if any(len(line) > MAX_SAMPLE_LINE_CHARS for line in lines):
        raise ValueError(f"a sample line of {name} is longer than {MAX_SAMPLE_LINE_CHARS} characters")
    return "".join(f"{line}\n" for line in lines)


def prometheus_value(text: str, name: str, labels: dict[str, str]) -> float:
    """The value of the first sample named `name` whose labels include `labels`."""
    for family in text_string_to_metric_families(sample_lines(text, name)):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    raise LookupError(name)


def json_value(text: str, path: str) -> float:
    value = json_path_get(loads_bounded(text, storable_text=False), path)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(path)
    return float(value)


def read_value(config: dict, text: str) -> float:
    if config["format"] == "prometheus":
        return prometheus_value(text, config["metric"], config.get("labels", {}))
    return json_value(text, config["path"])


async def measure(spec: RunSpec, session: aiohttp.ClientSession) -> Measurement:
    status, body = await http.fetch(spec, session, headers=spec.config.get("headers") or None)
    if not 200 <= status < 300:
        return Measurement(RunState.FAILED, None, f"HTTP {status}")
    try:
        value = read_value(spec.config, body.decode("utf-8", errors="replace"))
    except (LookupError, KeyError, IndexError):
        return Measurement(RunState.FAILED, None, "the value is not in the document")
    except ValueError as error:
        return Measurement(RunState.FAILED, None, f"not a number: {error}"[:200])
    if not math.isfinite(value):
        return Measurement(RunState.FAILED, None, "the value is not a finite number")
    return Measurement(RunState.OK, value, f"HTTP {status}")
