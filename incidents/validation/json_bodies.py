"""JSON texts read with bounds: request bodies, uploaded documents, probe settings and the bodies
monitored servers answer with.

Python's json module recurses once per `[` or `{`: a text of 100,000 brackets ends in
RecursionError far from the caller. The text is scanned first, without recursion, and refused
when it nests deeper than JSON_MAX_DEPTH. The scan takes time linear in the text whatever the
text holds (a string that never closes, thousands of escaped quotes, a megabyte of brackets):
each of its steps is one left-to-right pass that runs in C, and none is a regular expression
that starts again at every position (`make bench-scan` times it on those shapes).

Texts people send us may not hold a NUL character or an unpaired surrogate in any key or
string: PostgreSQL stores neither (a 500 at the write), and UTF-8 cannot encode the second.
"""

import json
import re
from itertools import product

from django.conf import settings
from django.utils.translation import gettext as _

# Brackets as parentheses, every other ASCII character dropped; anything left that is not a
# parenthesis (only text outside strings that is not JSON) is dropped by the expression.
_AS_PARENTHESES = str.maketrans(
    {**{chr(code): None for code in range(128)}, "[": "(", "{": "(", "]": ")", "}": ")"}
)
_NOT_PARENTHESIS = re.compile(r"[^()]++")

# Brackets are counted a block at a time: every run of up to _BLOCK parentheses, with its net
# change of depth and the deepest it reaches from where it starts (510 runs).
_BLOCK = 8


def _block_depths() -> dict[str, tuple[int, int]]:
    table = {}
    for length in range(1, _BLOCK + 1):
        for run in product("()", repeat=length):
            depth = deepest = 0
            for parenthesis in run:
                depth += 1 if parenthesis == "(" else -1
                deepest = max(deepest, depth)
            table["".join(run)] = (depth, deepest)
    return table


_BLOCK_DEPTHS = _block_depths()


class JsonTooDeep(ValueError):
    """The JSON text nests more than JSON_MAX_DEPTH arrays and objects."""

    field = "body"

    def __init__(self, limit: int):
        super().__init__(
            _("The JSON body is nested too deeply: at most %(limit)s levels of arrays and objects.")
            % {"limit": limit}
        )


class UnstorableText(ValueError):
    """A key or string of the JSON text holds a NUL character or an unpaired surrogate.

    `field` is the top-level key it is under ("body" when the text is not an object), `location`
    the whole path to it (`labels.team`, `incidents[3].name`)."""

    def __init__(self, *, field: str, location: str):
        self.field = field
        self.location = location
        super().__init__(
            _("%(location)s holds a NUL character or an unpaired surrogate, which cannot be stored.")
            % {"location": location}
        )


def structure_outside_strings(text: str) -> str:
    """`text` without its strings: what JSON reads as structure.

    Escaped backslashes go first, then escaped quotes, so every quote left opens or closes a
    string; the pieces between them alternate outside and inside. A string that never closes
    takes the rest of the text with it."""
    unescaped = text.replace("\\\\", "").replace('\\"', "")
    return "".join(unescaped.split('"')[0::2])


def json_depth_exceeds(text: str, limit: int) -> bool:
    """Whether `text` opens more than `limit` arrays or objects inside one another."""
    brackets = structure_outside_strings(text).translate(_AS_PARENTHESES)
    if not brackets.isascii():
        brackets = _NOT_PARENTHESIS.sub("", brackets)
    depth = 0
    for start in range(0, len(brackets), _BLOCK):
        change, deepest = _BLOCK_DEPTHS[brackets[start : start + _BLOCK]]
        if depth + deepest > limit:
            return True
        depth += change
    return False


def is_storable(text: str) -> bool:
    """Text a database row can hold: no NUL character, no lone surrogate."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\x00" not in text


def _shown(key: str) -> str:
    """A key as written in the path: one that cannot be stored with JSON's escapes (`\\u0000`)."""
    return key if is_storable(key) else json.dumps(key)[1:-1]


def _unstorable_path(document, path: tuple) -> tuple | None:
    """The path to the first key or string in `document` that cannot be stored, or None."""
    if isinstance(document, str):
        return None if is_storable(document) else path
    if isinstance(document, dict | list):
        for key, value in document.items() if isinstance(document, dict) else enumerate(document):
            if isinstance(key, str) and not is_storable(key):
                return (*path, key)
            found = _unstorable_path(value, (*path, key))
            if found is not None:
                return found
    return None


def check_storable_text(document, *, text: str) -> None:
    """Raises UnstorableText if a key or string of `document` (parsed from `text`) holds a NUL
    character or an unpaired surrogate."""
    # Valid JSON refuses a raw control character in a string, and an ASCII text can only
    # spell either character as a \u escape: most texts need no walk.
    if text.isascii() and "\\u" not in text:
        return
    path = _unstorable_path(document, ())
    if path is None:
        return
    location = ""
    for segment in path:
        location += f"[{segment}]" if isinstance(segment, int) else f".{_shown(segment)}"
    field = _shown(path[0]) if path and isinstance(path[0], str) else "body"
    raise UnstorableText(field=field, location=location.lstrip(".") or "body")


def loads_bounded(body: str | bytes, *, storable_text: bool = True, **kwargs):
    """json.loads, refusing with JsonTooDeep (a ValueError) a text nested deeper than the
    setting, and with UnstorableText (one too) a NUL or unpaired surrogate in any key or string
    unless `storable_text` is off (answers we only read a number or a status from)."""
    text = body.decode(json.detect_encoding(body)) if isinstance(body, bytes) else body
    limit = settings.JSON_MAX_DEPTH
    if json_depth_exceeds(text, limit):
        raise JsonTooDeep(limit)
    document = json.loads(text, **kwargs)
    if storable_text:
        check_storable_text(document, text=text)
    return document
