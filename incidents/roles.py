"""Staff roles and what each may do: one module used by the editor and the API alike.

viewer reads drafts and internal action items; responder also declares and updates incidents
and writes postmortems; admin also manages components, metrics, probes, thresholds and users.
Roles are Django groups, so the admin can assign them.
"""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.db import models
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    VIEWER = "viewer", _("Viewer")
    RESPONDER = "responder", _("Responder")
    ADMIN = "admin", _("Admin")


RANK = {Role.VIEWER: 1, Role.RESPONDER: 2, Role.ADMIN: 3}


def assign_role(user: AbstractBaseUser, role: Role) -> None:
    """Gives `user` exactly one role (and staff status, so they can log in to the editor)."""
    groups = {r: Group.objects.get_or_create(name=r.value)[0] for r in Role}
    user.groups.remove(*groups.values())
    user.groups.add(groups[Role(role)])
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])


def role_of(user: AbstractBaseUser | None) -> Role | None:
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    if user.is_superuser:
        return Role.ADMIN
    names = set(user.groups.values_list("name", flat=True))
    held = [role for role in Role if role.value in names]
    return max(held, key=RANK.__getitem__, default=None)


def has_role(user: AbstractBaseUser | None, role: Role) -> bool:
    """Whether `user` holds `role` or a higher one."""
    held = role_of(user)
    return held is not None and RANK[held] >= RANK[Role(role)]


def staff_users():
    """The accounts work can be given to (an action item's owner): active staff, by user name.

    The one list of user names a responder may see; a name outside it is answered as unknown,
    whether an account has it or not."""
    return get_user_model().objects.filter(is_active=True, is_staff=True).order_by("username")


def can_view_drafts(user) -> bool:
    return has_role(user, Role.VIEWER)


def can_respond(user) -> bool:
    return has_role(user, Role.RESPONDER)


def can_administer(user) -> bool:
    return has_role(user, Role.ADMIN)
