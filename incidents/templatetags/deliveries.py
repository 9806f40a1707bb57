"""The incident screen's delivery counts: which counts belong to an update, numbers in the reader's language."""

from django import template

from incidents.formatting import format_number
from incidents.selectors.deliveries import UpdateDeliveries, update_deliveries
from incidents.translation import current_language

register = template.Library()


@register.simple_tag
def told_about(update, deliveries: dict | None = None) -> UpdateDeliveries:
    """The update's counts from the screen's one query, or on their own when the page has none."""
    if deliveries and update.pk in deliveries:
        return deliveries[update.pk]
    return update_deliveries(update)


@register.filter
def count(value: int) -> str:
    return format_number(value, current_language())
