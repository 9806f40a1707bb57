"""Giving staff users their role, with a trail."""

from django.contrib.auth.models import AbstractBaseUser, Group
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from incidents.models import Subject
from incidents.roles import Role, assign_role, role_of

from .audit import record_event


@transaction.atomic
def set_role(user: AbstractBaseUser, *, role: Role | str | None, actor: AbstractBaseUser | None) -> None:
    """Gives `user` exactly `role`, or no role at all (None), and records the change."""
    if actor is not None and user.pk == actor.pk:
        raise ValidationError(_("You cannot change your own role."))
    before = role_of(user)
    if role:
        assign_role(user, Role(role))
    else:
        user.groups.remove(*Group.objects.filter(name__in=[r.value for r in Role]))
    after = role_of(user)
    if before != after:
        record_event(
            actor=actor,
            action="user.role_changed",
            subject_type=Subject.USER,
            subject_id=user.pk,
            subject_label=user.get_username(),
            before={"role": before.value if before else None},
            after={"role": after.value if after else None},
        )
