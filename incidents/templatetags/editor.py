"""Template helpers of the editor."""

import datetime as dt

from django import template
from django.utils import timezone

from incidents import formatting, roles
from incidents.editor import audit_text
from incidents.security import masking
from incidents.translation import current_language, pick

register = template.Library()


@register.simple_tag
def due_label(item) -> str:
    """An action item's due date as its precision says ("Q1 2027")."""
    if not item.due_date:
        return ""
    return formatting.format_due(item.due_date, item.due_precision, current_language())


def _checked(user, check) -> bool:
    # Remembered on the request's user, so a timeline of 100 updates asks the database once.
    memo = getattr(user, "_editor_checks", None)
    if memo is None:
        memo = {}
        user._editor_checks = memo
    if check not in memo:
        memo[check] = check(user)
    return memo[check]


@register.filter
def can_respond(user) -> bool:
    """Whether to show write forms; the views check again on every request."""
    return _checked(user, roles.can_respond)


@register.filter
def can_administer(user) -> bool:
    return _checked(user, roles.can_administer)


@register.filter
def time_left(value: dt.datetime | None) -> str:
    """ "in 3 months": how long until `value`, in the editor's language."""
    if value is None:
        return ""
    return formatting.format_time_left(value - timezone.now(), current_language())


@register.filter
def silence(alert) -> str:
    """ "7 hours": how long a firing alert has been silent (IntakeAlert.silent_for), or nothing."""
    quiet = alert.silent_for(timezone.now())
    return formatting.format_duration(quiet, current_language()) if quiet else ""


@register.simple_tag
def audit_lines(events) -> list:
    """Audit events in words (incidents.editor.audit_text), in the editor's language."""
    return audit_text.audit_lines(events)


@register.simple_tag
def update_texts(update, incident) -> tuple:
    """An update's text in the editor's language (or its fallback), and its other languages."""
    shown = pick(update.body, language=current_language(), original=incident.original_language)
    others = [
        (code, text) for code, text in sorted(update.body.items()) if code != shown.language and text.strip()
    ]
    return shown, others


@register.simple_tag
def sample_value(metric, value) -> str:
    """A sample's value with the metric's decimals, in the editor's language ("227.4")."""
    if value is None:
        return "—"
    return formatting.format_number(value, current_language(), precision=metric.precision)


@register.filter
def own_language_name(code: str) -> str:
    """A language by its own name ("Русский", "Norsk bokmål"), as the language switcher says it."""
    return formatting.language_name(code, code)


@register.filter
def masked_url(url: str) -> str:
    """A probe's URL with its query values (and a password) masked: they are write-only."""
    return masking.masked_url(url)
