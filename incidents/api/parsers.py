"""JSON request bodies read with a bound on nesting, for the API and every other JSON endpoint.

Python's json module recurses once per `[` or `{`: a body of 100,000 brackets ends in
RecursionError far from the view. The text is scanned first, without recursion, and refused
when it nests deeper than JSON_MAX_DEPTH.
"""

import json
import re

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.settings import api_settings
from rest_framework.utils.json import strict_constant

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


class BoundedJSONParser(JSONParser):
    """DRF's JSON parser with the nesting bound; strict about NaN and Infinity like DRF's."""

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = stream.read().decode(encoding)
            constant = strict_constant if api_settings.STRICT_JSON else None
            return loads_bounded(text, parse_constant=constant)
        except JsonTooDeep as error:
            raise ParseError({"body": [str(error)]}) from None
        except ValueError as error:
            raise ParseError(_("JSON parse error - %(error)s") % {"error": error}) from None
