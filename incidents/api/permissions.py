"""API permissions: the editor's roles (incidents.roles), narrowed by the token's scope."""

from django.utils.translation import gettext_lazy as _
from rest_framework.permissions import SAFE_METHODS, BasePermission

from incidents.models import ApiToken, TokenScope
from incidents.roles import can_administer, can_respond, can_view_drafts


class StaffRole(BasePermission):
    """Reading needs a staff role; writing needs the view's role and, with a token, write scope.

    A view names the role check for its writes in `write_permission` (default: admin), and
    may name others per action in `action_write_permissions`; `read_permission` (default:
    viewer) is the check for reads, for resources as private as subscribers.
    """

    message = _("Your role does not allow this.")

    def has_permission(self, request, view) -> bool:
        if isinstance(request.auth, ApiToken) and request.auth.scope == TokenScope.INTAKE:
            self.message = _("This token may only send alerts to /api/v1/intake/.")
            return False
        if request.method in SAFE_METHODS:
            return getattr(view, "read_permission", can_view_drafts)(request.user)
        if isinstance(request.auth, ApiToken) and not request.auth.can_write:
            self.message = _("This token is read-only.")
            return False
        check = getattr(view, "action_write_permissions", {}).get(
            getattr(view, "action", None), getattr(view, "write_permission", can_administer)
        )
        return check(request.user)


class IntakeToken(BasePermission):
    """Alert intake: a token of the `intake` scope, whose user may still respond to incidents."""

    message = _("Send alerts with an API token of the alert intake scope.")

    def has_permission(self, request, view) -> bool:
        token = request.auth
        return isinstance(token, ApiToken) and token.scope == TokenScope.INTAKE and can_respond(request.user)
