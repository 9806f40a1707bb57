"""A staff member's role."""

from django import forms
from django.utils.translation import gettext_lazy as _

from incidents.roles import Role


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), required=False, choices=[("", _("No role")), *Role.choices])
