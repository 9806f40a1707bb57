"""The audit log's filter."""

from django import forms
from django.utils.translation import gettext_lazy as _

from incidents.models import Subject
from incidents.validation.instants import check_any

from .base import DATETIME_WIDGET


class AuditFilterForm(forms.Form):
    subject_type = forms.ChoiceField(
        label=_("Object type"),
        required=False,
        choices=[("", _("Any")), *Subject.choices, ("update_template", _("Update template"))],
    )
    subject_id = forms.CharField(label=_("Object id"), max_length=64, required=False)
    actor = forms.CharField(label=_("User"), max_length=150, required=False)
    since = forms.DateTimeField(
        label=_("From"), required=False, widget=DATETIME_WIDGET, validators=[check_any]
    )
    until = forms.DateTimeField(label=_("To"), required=False, widget=DATETIME_WIDGET, validators=[check_any])
