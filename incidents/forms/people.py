"""A staff member's role."""

from django import forms
from django.utils.translation import gettext_lazy as _

from incidents.roles import Role


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["role"].choices = [("", _("No role")), *Role.choices]
