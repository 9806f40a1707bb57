"""Template filters that show domain values in the page's language."""

import datetime as dt

from django import template
from django.utils.html import format_html

from incidents import formatting
from incidents.public import presentation
from incidents.rendering import render_markdown
from incidents.translation import current_language, pick

register = template.Library()


@register.filter
def translated(texts: dict, obj=None):
    """The text in the page's language (a `Shown`, which says which language it is in)."""
    original = getattr(obj, "original_language", None)
    return pick(texts, language=current_language(), original=original)


@register.filter
def markdown(text) -> str:
    return render_markdown(str(text))


@register.filter
def when(value: dt.datetime) -> str:
    return formatting.format_datetime(value, current_language()) if value else ""


@register.filter
def iso_utc(value: dt.datetime | None) -> str:
    """The time for machines (a <time datetime>), also for times no zone can hold."""
    return formatting.utc_text(value) if value else ""


@register.filter
def duration(value: dt.timedelta) -> str:
    return formatting.format_duration(value, current_language()) if value is not None else ""


@register.simple_tag
def metric_value(metric) -> str:
    """The latest value in the unit a person reads it in ("23 min"), the exact one in its title."""
    language = current_language()
    shown = presentation.metric_value(metric, metric.latest_value, language)
    exact = presentation.exact_value(metric, metric.latest_value, language)
    return format_html('<span title="{}">{}</span>', exact, shown) if exact else shown
