"""Writing and publishing postmortems, their key figures (the numbers that tell the story) and
their action items."""

import datetime as dt
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import (
    MAX_KEY_FIGURES,
    SECTIONS,
    ActionItem,
    ActionItemState,
    DuePrecision,
    Incident,
    KeyFigure,
    KeyFigureUnit,
    Postmortem,
    PostmortemState,
)
from incidents.public.versions import content_changed
from incidents.translation import validate_language, validate_translations
from incidents.validation.concurrency import ConcurrentEdit
from incidents.validation.instants import check_instants

from .audit import audit
from .commands import WritePostmortem
from .edits import check_title_field

SECTION_KEYS = tuple(key for key, _label in SECTIONS)


@transaction.atomic
def write_postmortem(incident: Incident, command: WritePostmortem, *, actor: User | None) -> Postmortem:
    """Saves the sections of one language of an incident's postmortem (creating it if needed),
    and its key figures when the command carries them."""
    validate_language(command.language)
    sections = command.sections or {}
    unknown = set(sections) - set(SECTION_KEYS)
    if unknown:
        raise ValidationError(
            _("Unknown postmortem sections: %(names)s") % {"names": ", ".join(sorted(unknown))}
        )
    postmortem, created = Postmortem.objects.select_for_update().get_or_create(
        incident=incident, defaults={"original_language": command.language}
    )
    if not created and command.expected_version not in (None, postmortem.version):
        raise ConcurrentEdit(postmortem)
    if command.sections is not None or created:
        _write_sections(
            postmortem, language=command.language, sections=sections, created=created, actor=actor
        )
    if command.key_figures is not None:
        _write_key_figures(postmortem, language=command.language, figures=command.key_figures, actor=actor)
    return postmortem


def _write_sections(
    postmortem: Postmortem,
    *,
    language: str,
    sections: Mapping[str, str],
    created: bool,
    actor: User | None,
) -> None:
    before = {key: getattr(postmortem, key).get(language, "") for key in sections}
    for key, text in sections.items():
        texts = dict(getattr(postmortem, key))
        if text.strip():
            texts[language] = text
        else:
            texts.pop(language, None)
        validate_translations(texts)
        setattr(postmortem, key, texts)
    postmortem.version += 0 if created else 1
    postmortem.updated_at = timezone.now()
    postmortem.save()
    content_changed()
    after = {"language": language, **sections}
    audit(
        postmortem,
        action="postmortem.written",
        actor=actor,
        before={"language": language, **before},
        after=after,
    )


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


def _write_key_figures(
    postmortem: Postmortem, *, language: str, figures: Sequence[Mapping[str, Any]], actor: User | None
) -> None:
    """Replaces the postmortem's key figures; labels are written in `language`, and a figure at
    the same position keeps its labels in the other languages."""
    check_key_figures(figures)
    existing = list(postmortem.key_figures.order_by("position", "id"))
    postmortem.key_figures.all().delete()
    kept = [figure.label for figure in existing] + [{}] * len(figures)
    saved = KeyFigure.objects.bulk_create(
        KeyFigure(
            postmortem=postmortem,
            position=position,
            label={**kept[position], language: figure["label"].strip()},
            value=float(figure["value"]),
            unit=figure["unit"],
        )
        for position, figure in enumerate(figures)
    )
    postmortem.version += 1
    postmortem.updated_at = timezone.now()
    postmortem.save(update_fields=["version", "updated_at"])
    content_changed()
    before = {"key_figures": _snapshot(existing)}
    after = {"language": language, "key_figures": _snapshot(saved)}
    audit(postmortem, action="postmortem.key_figures_changed", actor=actor, before=before, after=after)


@transaction.atomic
def publish_postmortem(
    postmortem: Postmortem, *, actor: User | None, published_at: dt.datetime | None = None
) -> Postmortem:
    """Makes a postmortem public."""
    if not any(getattr(postmortem, key) for key in SECTION_KEYS):
        raise ValidationError(_("An empty postmortem cannot be published."))
    check_instants(happened={"published_at": published_at})
    return _set_state(postmortem, PostmortemState.PUBLISHED, actor=actor, at=published_at or timezone.now())


@transaction.atomic
def unpublish_postmortem(postmortem: Postmortem, *, actor: User | None) -> Postmortem:
    """Takes a postmortem back to draft."""
    return _set_state(postmortem, PostmortemState.DRAFT, actor=actor, at=None)


def _set_state(
    postmortem: Postmortem, state: PostmortemState, *, actor: User | None, at: dt.datetime | None
) -> Postmortem:
    postmortem = Postmortem.objects.select_for_update().get(pk=postmortem.pk)
    before = {"state": postmortem.state}
    postmortem.state = state
    postmortem.published_at = at
    postmortem.version += 1
    postmortem.updated_at = timezone.now()
    postmortem.save(update_fields=["state", "published_at", "version", "updated_at"])
    content_changed()
    action = f"postmortem.{'published' if at else 'unpublished'}"
    audit(postmortem, action=action, actor=actor, before=before, after={"state": state.value})
    return postmortem


ACTION_ITEM_FIELDS = ("title", "owner_id", "owner_name", "state", "due_date", "due_precision", "is_public")


def _item_snapshot(item: ActionItem) -> dict[str, Any]:
    snapshot = {field: getattr(item, field) for field in ACTION_ITEM_FIELDS}
    snapshot["due_date"] = item.due_date.isoformat() if item.due_date else None
    return snapshot


@transaction.atomic
def save_action_item(item: ActionItem, *, actor: User | None) -> ActionItem:
    """Creates or edits an action item, stamping completion when it is done."""
    validate_translations(item.title)
    if not any(text.strip() for text in item.title.values()):
        raise ValidationError({"title": _("An action item needs a title.")})
    check_title_field(item.title)
    item.due_precision = DuePrecision(item.due_precision)
    item.full_clean()
    creating = item.pk is None
    before = {} if creating else _item_snapshot(ActionItem.objects.get(pk=item.pk))
    if creating or before["due_date"] != _item_snapshot(item)["due_date"]:
        check_instants(planned={"due_date": item.due_date})
    if item.state == ActionItemState.DONE and not item.completed_at:
        item.completed_at = timezone.now()
    elif item.state != ActionItemState.DONE:
        item.completed_at = None
    item.updated_at = timezone.now()
    item.save()
    content_changed()
    action = "action_item.created" if creating else "action_item.changed"
    audit(item, action=action, actor=actor, before=before, after=_item_snapshot(item))
    return item
