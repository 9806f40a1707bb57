"""Forms for component groups, components and their metrics."""

from django import forms
from django.utils.translation import gettext_lazy as _

from incidents.models import Aggregation, ComponentGroup, MetricKind, StatusMode, Unit

from .base import add_translated_fields


class NamedForm(forms.Form):
    """A name in every language (the site's required) and an optional description."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        add_translated_fields(self, "name", _("Name"))
        add_translated_fields(
            self,
            "description",
            _("Description"),
            required_language="",
            widget=forms.Textarea(attrs={"rows": 2}),
        )


class ComponentForm(NamedForm):
    slug = forms.SlugField(label=_("Slug"), max_length=50)
    group = forms.ModelChoiceField(label=_("Group"), queryset=ComponentGroup.objects.all(), required=False)
    position = forms.IntegerField(label=_("Position"), min_value=0, initial=0)
    status_mode = forms.ChoiceField(label=_("Status"), choices=StatusMode.choices)
    showcase = forms.BooleanField(label=_("Show uptime bars"), required=False, initial=True)
    only_show_if_degraded = forms.BooleanField(label=_("Only show when degraded"), required=False)
    uptime_target = forms.DecimalField(
        label=_("Uptime target (%)"),
        required=False,
        min_value=0,
        max_value=100,
        max_digits=6,
        decimal_places=3,
        help_text=_("Monthly uptime the uptime page compares against, for example 99.9. Empty: no target."),
    )


class MetricForm(forms.Form):
    slug = forms.SlugField(label=_("Slug"), max_length=50)
    kind = forms.ChoiceField(label=_("Kind"), choices=MetricKind.choices)
    unit = forms.ChoiceField(label=_("Unit"))
    precision = forms.IntegerField(label=_("Decimals shown"), min_value=0, max_value=6, initial=0)
    aggregation = forms.ChoiceField(label=_("Aggregation"))
    window = forms.IntegerField(label=_("Samples evaluated"), min_value=1, max_value=1000, initial=5)
    expected_interval = forms.IntegerField(
        label=_("Seconds between samples"), min_value=1, max_value=86400, initial=60
    )
    higher_is_worse = forms.BooleanField(label=_("Higher is worse"), required=False, initial=True)
    degraded_threshold = forms.FloatField(label=_("Degraded from"), required=False)
    partial_outage_threshold = forms.FloatField(label=_("Partial outage from"), required=False)
    major_outage_threshold = forms.FloatField(label=_("Major outage from"), required=False)
    position = forms.IntegerField(label=_("Position"), min_value=0, initial=0)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit"].choices = Unit.choices
        self.fields["aggregation"].choices = Aggregation.choices
        add_translated_fields(self, "name", _("Name"))


class GroupForm(NamedForm):
    slug = forms.SlugField(label=_("Slug"), max_length=50)
    position = forms.IntegerField(label=_("Position"), min_value=0, initial=0)
