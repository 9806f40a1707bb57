"""Correcting a posted timeline update, refusing to overwrite a colleague's correction."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import IncidentUpdate, Subject
from incidents.public.versions import content_changed
from incidents.rendering import rendered_texts
from incidents.translation import validate_language, validate_translations

from .audit import record_event
from .incidents import ConcurrentEdit


@transaction.atomic
def edit_update(
    update: IncidentUpdate,
    *,
    language: str,
    text: str,
    actor: AbstractBaseUser | None,
    expected_version: int,
) -> IncidentUpdate:
    """Replaces the text of one language of an update; ConcurrentEdit if it changed meanwhile."""
    validate_language(language)
    locked = IncidentUpdate.objects.select_for_update().get(pk=update.pk)
    if locked.version != expected_version:
        raise ConcurrentEdit(locked)
    body = dict(locked.body)
    if text.strip():
        body[language] = text
    elif language == locked.original_language:
        raise ValidationError({"text": _("An update needs a text.")})
    else:
        body.pop(language, None)
    validate_translations(body)
    before = {"body": locked.body}
    locked.body = body
    locked.body_html = rendered_texts(body)
    locked.version += 1
    locked.updated_at = timezone.now()
    locked.save(update_fields=["body", "body_html", "version", "updated_at"])
    content_changed()
    record_event(
        actor=actor,
        action="update.edited",
        subject_type=Subject.UPDATE,
        subject_id=locked.pk,
        subject_label=str(locked.incident),
        before=before,
        after={"body": body},
        incident=locked.incident,
    )
    return locked
