"""Alert rules: saving and deleting them, with the audit trail."""

from collections.abc import Callable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from incidents.models import AlertRule, StatusMode, Subject
from incidents.services.audit import changed_fields, record_event

from .matchers import parse_matchers

RULE_FIELDS = ("name", "source", "matchers", "component_id", "status", "open_incident", "position", "enabled")


def _audited(rule: AlertRule) -> dict:
    return {field: getattr(rule, field) for field in RULE_FIELDS}


def validate_rule(rule: AlertRule) -> None:
    errors = {}
    try:
        rule.matchers = [str(matcher) for matcher in parse_matchers(rule.matchers)]
    except ValidationError as error:
        errors["matchers"] = error.messages
    # The component may be one not saved yet (a configuration file checked before it is applied).
    component = rule.component if rule.component_id or AlertRule.component.is_cached(rule) else None
    if component is not None and component.status_mode != StatusMode.AUTOMATIC:
        errors["component"] = [
            _("Alerts set only components whose status is automatic; make this one automatic first.")
        ]
    if errors:
        raise ValidationError(errors)


@transaction.atomic
def save_alert_rule(rule: AlertRule, *, actor: AbstractBaseUser | None) -> AlertRule:
    """Creates or edits a rule after validating it (matchers stored in their written-out form)."""
    validate_rule(rule)
    rule.full_clean()
    creating = rule.pk is None
    before = {} if creating else _audited(AlertRule.objects.get(pk=rule.pk))
    rule.updated_at = timezone.now()
    rule.save()
    old, new = changed_fields(before, _audited(rule))
    if old or new:
        record_event(
            actor=actor,
            action="alert_rule.created" if creating else "alert_rule.changed",
            subject_type=Subject.ALERT_RULE,
            subject_id=rule.pk,
            subject_label=str(rule),
            before=old,
            after=new,
        )
    return rule


@transaction.atomic
def delete_alert_rule(
    rule: AlertRule, *, actor: AbstractBaseUser | None, check: Callable[[AlertRule], None] | None = None
) -> None:
    """Alerts it took stay, listed as unknown from now on; their components keep their status
    until the alerts resolve. `check` (the API's If-Match) sees the rule under its row lock first."""
    rule = AlertRule.objects.select_for_update().filter(pk=rule.pk).first()
    if rule is None:
        return  # deleted meanwhile
    if check is not None:
        check(rule)
    record_event(
        actor=actor,
        action="alert_rule.deleted",
        subject_type=Subject.ALERT_RULE,
        subject_id=rule.pk,
        subject_label=str(rule),
        before=_audited(rule),
    )
    rule.delete()
