"""Single-line texts people read as names (incident titles, which are also mail subjects, and
action item titles): one check for every door, the forms, the API and the services.

A title needs a character one can see (one of only zero-width spaces or joiners shows as a
blank link), and holds no control character (a line break forged into a mail subject) and no
bidirectional override or isolate (U+202E shows "exe.pdf" as "fdp.exe").
"""

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Embeddings, overrides and isolates (Unicode's bidirectional algorithm, UAX #9); the marks
# U+200E and U+200F are left alone: right-to-left text needs them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _is_invisible(character: str) -> bool:
    # Format characters (Cf: zero-width space, joiners, the byte order mark) and blanks.
    return character.isspace() or unicodedata.category(character) == "Cf"


def check_title(text: str) -> None:
    """Refuses a title with no visible character, a control character or a direction override."""
    if any(character in BIDI_CONTROLS for character in text):
        raise ValidationError(_("A title cannot contain text-direction controls."), code="bidi_control")
    if any(unicodedata.category(character) == "Cc" for character in text):
        raise ValidationError(_("A title cannot contain control characters."), code="control_character")
    if all(_is_invisible(character) for character in text):
        raise ValidationError(_("A title needs at least one visible character."), code="invisible")


def check_titles(texts: dict[str, str]) -> None:
    """check_title for each language's text of a translated title (an empty one removes it)."""
    for text in texts.values():
        if isinstance(text, str) and text:
            check_title(text)
