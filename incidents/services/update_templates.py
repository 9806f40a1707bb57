"""Update templates: a title and a text per language, the status and component statuses they set."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import ComponentStatus, UpdateTemplate
from incidents.translation import validate_language
from incidents.validation.concurrency import ConcurrentEdit

from .audit import changed_fields, record_event

# Not one of the domain subjects (models.audit.Subject): templates are editor furniture,
# but their changes still belong in the trail.
TEMPLATE_SUBJECT = "update_template"
TEMPLATE_FIELDS = ("name", "language", "kind", "status", "title", "body", "component_statuses")


def check_component_statuses(statuses: object) -> None:
    """{component slug: component status}; the slugs are checked when the template is used."""
    if not isinstance(statuses, dict) or not all(
        isinstance(slug, str) and status in ComponentStatus.values for slug, status in statuses.items()
    ):
        raise ValidationError({"component_statuses": _("Map each component to one of its statuses.")})


def _snapshot(template: UpdateTemplate) -> dict:
    return {field: getattr(template, field) for field in TEMPLATE_FIELDS}


@transaction.atomic
def save_update_template(
    template: UpdateTemplate, *, actor: AbstractBaseUser | None, expected_version: int | None = None
) -> UpdateTemplate:
    """Creates or edits an update template; ConcurrentEdit if someone saved it meanwhile."""
    validate_language(template.language)
    check_component_statuses(template.component_statuses)
    template.full_clean()
    creating = template.pk is None
    before = {}
    if not creating:
        stored = UpdateTemplate.objects.select_for_update().get(pk=template.pk)
        if expected_version is not None and stored.version != expected_version:
            raise ConcurrentEdit(stored)
        before = _snapshot(stored)
        template.version = stored.version + 1
    template.updated_at = timezone.now()
    template.save()
    old, new = changed_fields(before, _snapshot(template))
    record_event(
        actor=actor,
        action="update_template.created" if creating else "update_template.changed",
        subject_type=TEMPLATE_SUBJECT,
        subject_id=template.pk,
        subject_label=str(template),
        before=old,
        after=new,
    )
    return template


@transaction.atomic
def delete_update_template(template: UpdateTemplate, *, actor: AbstractBaseUser | None) -> None:
    """Deletes an update template, keeping its last text in the trail."""
    record_event(
        actor=actor,
        action="update_template.deleted",
        subject_type=TEMPLATE_SUBJECT,
        subject_id=template.pk,
        subject_label=str(template),
        before=_snapshot(template),
    )
    template.delete()
