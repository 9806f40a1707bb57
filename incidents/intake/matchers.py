"""Alertmanager's label matchers: `name="value"`, `name!="value"`, `name=~"regex"`, `name!~"regex"`.

Regular expressions are anchored at both ends and compiled with RE2, as in Alertmanager: RE2
matches in time linear in the label's length, so no pattern can backtrack on a label a sender
chose. A pattern RE2 does not support (backreferences, look-around) is refused when the rule is
saved. Matchers come from admins, but are still bounded in length (INTAKE_MATCHER_MAX_LENGTH).
"""

import re
from dataclasses import dataclass, field

import re2
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

MAX_MATCHERS = 20
_MATCHER = re.compile(r'^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(=~|!~|!=|=)\s*(?:"((?:[^"\\]|\\.)*)"|([^"\s]*))\s*$')


@dataclass(frozen=True)
class Matcher:
    label: str
    operator: str
    value: str
    pattern: re2._Regexp | None = field(default=None, compare=False, repr=False)

    def holds(self, labels: dict[str, str]) -> bool:
        actual = labels.get(self.label, "")
        if self.pattern is not None:
            found = self.pattern.fullmatch(actual) is not None
            return found if self.operator == "=~" else not found
        return (actual == self.value) == (self.operator == "=")

    def __str__(self) -> str:
        escaped = self.value.replace("\\", "\\\\").replace('"', '\\"')
        return f'{self.label}{self.operator}"{escaped}"'


def compile_pattern(value: str) -> re2._Regexp:
    """The matcher's regular expression as RE2 runs it; ValidationError if RE2 cannot."""
    options = re2.Options()
    options.log_errors = False  # the error is the form's to show, not stderr's
    try:
        return re2.compile(value, options)
    except re2.error as error:
        reason = error.args[0].decode(errors="replace") if error.args else ""
        raise ValidationError(
            _("“%(value)s” is not a regular expression RE2 can run: %(error)s")
            % {"value": value, "error": reason}
        ) from None


def parse_matcher(text: str) -> Matcher:
    longest = settings.INTAKE_MATCHER_MAX_LENGTH
    if len(text) > longest:
        raise ValidationError(_("A matcher may be at most %(n)d characters.") % {"n": longest})
    found = _MATCHER.match(text)
    if not found:
        raise ValidationError(
            _('“%(text)s” is not a label matcher; write it as service="webhooks" (or !=, =~, !~).')
            % {"text": text}
        )
    label, operator, quoted, bare = found.groups()
    value = re.sub(r"\\(.)", r"\1", quoted) if quoted is not None else bare
    pattern = compile_pattern(value) if operator in ("=~", "!~") else None
    return Matcher(label, operator, value, pattern)


def parse_matchers(texts) -> list[Matcher]:
    """A rule's matchers from a list of strings (or one string, one matcher per line or comma)."""
    if isinstance(texts, str):
        texts = [part for line in texts.splitlines() for part in _split_outside_quotes(line)]
    if not isinstance(texts, list) or not all(isinstance(text, str) for text in texts):
        raise ValidationError(_("Give the matchers as a list of strings."))
    texts = [text.strip() for text in texts if text.strip()]
    if not texts:
        raise ValidationError(_("A rule needs at least one matcher."))
    if len(texts) > MAX_MATCHERS:
        raise ValidationError(_("A rule may have at most %(n)d matchers.") % {"n": MAX_MATCHERS})
    return [parse_matcher(text) for text in texts]


def _split_outside_quotes(line: str) -> list[str]:
    parts, current, quoted, escaped = [], "", False, False
    for char in line:
        if char == "," and not quoted:
            parts.append(current)
            current = ""
            continue
        current += char
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == '"':
            quoted = not quoted
    return [*parts, current]


def all_hold(matchers: list[Matcher], labels: dict[str, str]) -> bool:
    return all(matcher.holds(labels) for matcher in matchers)
