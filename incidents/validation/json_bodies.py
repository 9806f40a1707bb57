"""JSON texts read with a bound on nesting: request bodies, uploaded documents, probe settings
and the bodies monitored servers answer with.

Python's json module recurses once per `[` or `{`: a text of 100,000 brackets ends in
RecursionError far from the caller. The text is scanned first, without recursion, and refused
when it nests deeper than JSON_MAX_DEPTH.
"""

import json
import re

from django.conf import settings
from django.utils.translation import gettext as _

# A whole string literal (brackets inside it do not count), or one bracket.
_STRING_OR_BRACKET = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.DOTALL)
_OPENING = frozenset("[{")


class JsonTooDeep(ValueError):
    """The JSON text nests more than JSON_MAX_DEPTH arrays and objects."""

    def __init__(self, limit: int):
        super().__init__(
            _("The JSON body is nested too deeply: at most %(limit)s levels of arrays and objects.")
            % {"limit": limit}
        )


def json_depth_exceeds(text: str, limit: int) -> bool:
    """Whether `text` opens more than `limit` arrays or objects inside one another."""
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in _OPENING:
            depth += 1
            if depth > limit:
                return True
        elif len(token) == 1:
            depth -= 1
    return False


def loads_bounded(body: str | bytes, **kwargs):
    """json.loads, refusing with JsonTooDeep (a ValueError) a text nested deeper than the setting."""
    text = body.decode(json.detect_encoding(body)) if isinstance(body, bytes) else body
    limit = settings.JSON_MAX_DEPTH
    if json_depth_exceeds(text, limit):
        raise JsonTooDeep(limit)
    return json.loads(text, **kwargs)
