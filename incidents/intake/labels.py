"""What an alert's labels and annotations may hold before anything of it is kept.

Labels are short identifiers (Prometheus, Grafana) that every rule's matchers run over, so their
number and lengths are bounded (INTAKE_MAX_LABELS, INTAKE_LABEL_NAME_MAX_LENGTH,
INTAKE_LABEL_VALUE_MAX_LENGTH). Labels and annotations are stored as JSON, whose names no field
checks (values are text fields, which refuse them already): a NUL character or a lone surrogate
in a name is text no PostgreSQL row can hold, so it is refused here rather than failing the write.
"""

from collections.abc import Iterable

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from incidents.validation.json_bodies import is_storable


def check_names(names: Iterable[str]) -> None:
    if not all(is_storable(name) for name in names):
        raise ValidationError(_("Names may not contain NUL characters or lone surrogates."))


def check_labels(labels: dict[str, str]) -> None:
    """ValidationError unless the labels are few, short and storable."""
    most = settings.INTAKE_MAX_LABELS
    if len(labels) > most:
        raise ValidationError(_("An alert may have at most %(n)d labels.") % {"n": most})
    longest_name = settings.INTAKE_LABEL_NAME_MAX_LENGTH
    if any(len(name) > longest_name for name in labels):
        raise ValidationError(_("A label name may be at most %(n)d characters.") % {"n": longest_name})
    longest_value = settings.INTAKE_LABEL_VALUE_MAX_LENGTH
    if any(len(value) > longest_value for value in labels.values()):
        raise ValidationError(_("A label value may be at most %(n)d characters.") % {"n": longest_value})
    check_names(labels)
