"""Template helpers of the editor."""

from django import template
from django.utils.translation import get_language

from incidents import formatting

register = template.Library()


@register.simple_tag
def due_label(item) -> str:
    """An action item's due date as its precision says ("Q1 2027")."""
    if not item.due_date:
        return ""
    return formatting.format_due(item.due_date, item.due_precision, get_language() or "en")
