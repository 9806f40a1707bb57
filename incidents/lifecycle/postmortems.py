"""Writing and publishing postmortems and their action items."""

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import (
    SECTIONS,
    ActionItem,
    ActionItemState,
    DuePrecision,
    Incident,
    Postmortem,
    PostmortemState,
    Subject,
)
from incidents.public.versions import content_changed
from incidents.services.audit import record_event
from incidents.translation import validate_language, validate_translations
from incidents.validation.concurrency import ConcurrentEdit
from incidents.validation.instants import check_instants
from incidents.validation.texts import check_titles

from .commands import WritePostmortem
from .key_figures import save_key_figures

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
    if (
        not created
        and command.expected_version is not None
        and postmortem.version != command.expected_version
    ):
        raise ConcurrentEdit(postmortem)
    if command.sections is not None or created:
        _write_sections(
            postmortem, language=command.language, sections=sections, created=created, actor=actor
        )
    if command.key_figures is not None:
        postmortem = save_key_figures(
            postmortem, language=command.language, figures=[dict(f) for f in command.key_figures], actor=actor
        )
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
    record_event(
        actor=actor,
        action="postmortem.written",
        subject_type=Subject.POSTMORTEM,
        subject_id=postmortem.pk,
        subject_label=str(postmortem),
        before={"language": language, **before},
        after={"language": language, **sections},
        incident=postmortem.incident,
    )


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
    record_event(
        actor=actor,
        action=f"postmortem.{'published' if at else 'unpublished'}",
        subject_type=Subject.POSTMORTEM,
        subject_id=postmortem.pk,
        subject_label=str(postmortem),
        before=before,
        after={"state": state.value},
        incident=postmortem.incident,
    )
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
    try:
        check_titles(item.title)
    except ValidationError as error:
        raise ValidationError({"title": error.messages}) from None
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
    record_event(
        actor=actor,
        action="action_item.created" if creating else "action_item.changed",
        subject_type=Subject.ACTION_ITEM,
        subject_id=item.pk,
        subject_label=str(item),
        before=before,
        after=_item_snapshot(item),
        incident=item.postmortem.incident,
    )
    return item
