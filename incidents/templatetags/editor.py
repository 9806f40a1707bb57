"""Template helpers of the editor."""

import datetime as dt

from django import template
from django.utils import timezone
from django.utils.translation import get_language

from incidents import formatting, roles

register = template.Library()


@register.simple_tag
def due_label(item) -> str:
    """An action item's due date as its precision says ("Q1 2027")."""
    if not item.due_date:
        return ""
    return formatting.format_due(item.due_date, item.due_precision, get_language() or "en")


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
    return formatting.format_time_left(value - timezone.now(), get_language() or "en")
