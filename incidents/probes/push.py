"""Push: the monitored system reports its own value to /probes/push/<probe id>/ with a token.

Nothing is run by us. The body is {"value": 12.5} or {"samples": [{"value": 1.0, "at": "..."}]}.
Validation refuses anything but finite numbers the metric can take, before storing any.
"""

import datetime as dt
import math

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.validation.instants import check_within_window, parse_instant
from incidents.validation.json_bodies import JsonTooDeep, UnstorableText, loads_bounded

from .base import known_settings

# How old a pushed sample may be: a push reports what is measured now, not history.
PUSH_WINDOW = dt.timedelta(days=1)


class BadPush(ValueError):
    """The pushed body is not acceptable; the message says why, `field` which value."""

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message)
        self.field = field


def validate(probe) -> None:
    if probe.url:
        raise ValidationError({"url": _("A push probe has no URL: the system calls us.")})
    known_settings(probe.config, set())


def _refuse_constant(name: str):
    raise BadPush(_("%(name)s is not a number.") % {"name": name})


def parse_body(body: bytes, *, received_at: dt.datetime) -> list[tuple[float, dt.datetime]]:
    """(value, time) pairs from a push body, or BadPush."""
    try:
        document = loads_bounded(body, parse_constant=_refuse_constant)
    except BadPush:
        raise
    except (JsonTooDeep, UnstorableText) as error:
        raise BadPush(str(error), field=error.field) from None
    except ValueError:  # UnicodeDecodeError included
        raise BadPush(_("The body must be JSON.")) from None
    if isinstance(document, dict) and "samples" in document:
        entries = document["samples"]
        if not isinstance(entries, list) or not entries:
            raise BadPush(_("samples must be a non-empty list."))
    elif isinstance(document, dict) and "value" in document:
        entries = [document]
    else:
        raise BadPush(_('Send {"value": number} or {"samples": [{"value": number}, ...]}.'))
    limit = getattr(settings, "PUSH_MAX_BATCH", 100)
    if len(entries) > limit:
        raise BadPush(_("At most %(limit)s samples per request.") % {"limit": limit})
    return [_entry(entry, received_at) for entry in entries]


def _entry(entry: object, received_at: dt.datetime) -> tuple[float, dt.datetime]:
    if not isinstance(entry, dict):
        raise BadPush(_("Each sample must be an object with a value."))
    value = entry.get("value")
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadPush(_("The value must be a number."), field="value")
    try:
        value = float(value)
    except OverflowError:  # a whole number too large for a float (10**400 is valid JSON)
        value = math.inf
    if not math.isfinite(value):
        raise BadPush(_("The value must be a finite number."), field="value")
    at = received_at
    if entry.get("at") is not None:
        at = parse_instant(entry["at"]) if isinstance(entry["at"], str) else None
        if at is None or timezone.is_naive(at):
            raise BadPush(_("at must be an ISO 8601 time with a time zone."), field="at")
        try:
            check_within_window(at, received_at=received_at, window=PUSH_WINDOW)
        except ValidationError as invalid:
            raise BadPush(" ".join(invalid.messages), field="at") from None
    return value, at
