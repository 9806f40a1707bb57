"""Writing a postmortem's key figures: the numbers that tell its story."""

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import MAX_KEY_FIGURES, KeyFigure, KeyFigureUnit, Postmortem, Subject
from incidents.public.versions import content_changed
from incidents.services.audit import record_event
from incidents.translation import validate_language

MAX_LABEL = 200
NOT_NEGATIVE = (
    KeyFigureUnit.DURATION,
    KeyFigureUnit.BYTES,
    KeyFigureUnit.COUNT,
    KeyFigureUnit.REQUESTS_PER_SECOND,
)


def figure_problem(figure: Mapping[str, Any]) -> str | None:
    """What is wrong with one figure ({label, value, unit}), or None."""
    label = figure.get("label")
    if not isinstance(label, str) or not label.strip():
        return _("A key figure needs a label.")
    if len(label) > MAX_LABEL:
        return _("A key figure's label has at most %(max)s characters.") % {"max": MAX_LABEL}
    if figure.get("unit") not in KeyFigureUnit.values:
        return _("Unknown unit; use one of %(units)s.") % {"units": ", ".join(KeyFigureUnit.values)}
    value = figure.get("value")
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return _("A key figure's value must be a finite number.")
    if value < 0 and figure["unit"] in NOT_NEGATIVE:
        return _("A %(unit)s figure cannot be negative.") % {"unit": KeyFigureUnit(figure["unit"]).label}
    if abs(value) > 1e15:
        return _("A key figure's value is too large.")
    return None


def check_key_figures(figures: Sequence[Mapping[str, Any]]) -> None:
    if len(figures) > MAX_KEY_FIGURES:
        raise ValidationError(
            {"key_figures": _("A postmortem has at most %(max)s key figures.") % {"max": MAX_KEY_FIGURES}}
        )
    problems = [
        _("Figure %(index)s: %(problem)s") % {"index": index, "problem": problem}
        for index, figure in enumerate(figures)
        if (problem := figure_problem(figure))
    ]
    if problems:
        raise ValidationError({"key_figures": problems})


def _snapshot(figures: Iterable[KeyFigure]) -> list[dict[str, Any]]:
    return [{"label": figure.label, "value": figure.value, "unit": figure.unit} for figure in figures]


@transaction.atomic
def save_key_figures(
    postmortem: Postmortem,
    *,
    language: str,
    figures: Sequence[Mapping[str, Any]],
    actor: User | None,
) -> Postmortem:
    """Replaces the postmortem's key figures; labels are written in `language`, and a figure at
    the same position keeps its labels in the other languages."""
    validate_language(language)
    check_key_figures(figures)
    postmortem = Postmortem.objects.select_for_update().get(pk=postmortem.pk)
    existing = list(postmortem.key_figures.order_by("position", "id"))
    postmortem.key_figures.all().delete()
    saved = KeyFigure.objects.bulk_create(
        _figure(postmortem, figure, position=position, language=language, existing=existing)
        for position, figure in enumerate(figures)
    )
    postmortem.version += 1
    postmortem.updated_at = timezone.now()
    postmortem.save(update_fields=["version", "updated_at"])
    content_changed()
    record_event(
        actor=actor,
        action="postmortem.key_figures_changed",
        subject_type=Subject.POSTMORTEM,
        subject_id=postmortem.pk,
        subject_label=str(postmortem),
        before={"key_figures": _snapshot(existing)},
        after={"language": language, "key_figures": _snapshot(saved)},
        incident=postmortem.incident,
    )
    return postmortem


def _figure(
    postmortem: Postmortem,
    figure: Mapping[str, Any],
    *,
    position: int,
    language: str,
    existing: list[KeyFigure],
) -> KeyFigure:
    kept = existing[position].label if position < len(existing) else {}
    return KeyFigure(
        postmortem=postmortem,
        position=position,
        label={**kept, language: figure["label"].strip()},
        value=float(figure["value"]),
        unit=figure["unit"],
    )
