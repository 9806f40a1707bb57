"""The alert rule form: matchers typed one per line, as in Alertmanager's configuration."""

from django import forms
from django.utils.translation import gettext_lazy as _

from incidents.forms.base import component_label
from incidents.models import ALERT_STATUSES, AlertSource, Component, StatusMode


class AlertRuleForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    source = forms.ChoiceField(
        label=_("Source"), choices=[("", _("Any source")), *AlertSource.choices], required=False
    )
    matchers = forms.CharField(
        label=_("Label matchers"),
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false", "autocapitalize": "off"}),
        help_text=_(
            'One per line, all must hold: service="webhooks", severity=~"critical|page", env!="staging".'
        ),
    )
    component = forms.ModelChoiceField(
        label=_("Component"),
        queryset=Component.objects.filter(status_mode=StatusMode.AUTOMATIC).order_by("position", "pk"),
        help_text=_("Only components whose status is automatic can be set by alerts."),
    )
    status = forms.ChoiceField(label=_("Status while the alert fires"), choices=ALERT_STATUSES)
    open_incident = forms.BooleanField(
        label=_("Open a draft incident when it fires"), required=False, initial=True
    )
    position = forms.IntegerField(label=_("Order"), min_value=0, max_value=10_000, initial=0)
    enabled = forms.BooleanField(label=_("Enabled"), required=False, initial=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["component"].label_from_instance = component_label
