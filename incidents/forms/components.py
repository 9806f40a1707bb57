"""Forms for component groups, components and their metrics."""

from django import forms

from incidents.models import Aggregation, Component, ComponentGroup, Metric, MetricKind, StatusMode, Unit

from .base import add_translated_fields, label


class NamedForm(forms.Form):
    """A name in every language (the site's required) and an optional description."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        add_translated_fields(self, "name", label(Component, "name"))
        add_translated_fields(
            self,
            "description",
            label(Component, "description"),
            required_language="",
            widget=forms.Textarea(attrs={"rows": 2}),
        )


class ComponentForm(NamedForm):
    slug = forms.SlugField(label=label(Component, "slug"), max_length=50)
    group = forms.ModelChoiceField(
        label=label(Component, "group"), queryset=ComponentGroup.objects.all(), required=False
    )
    position = forms.IntegerField(label=label(Component, "position"), min_value=0, initial=0)
    status_mode = forms.ChoiceField(label=label(Component, "status_mode"), choices=StatusMode.choices)
    showcase = forms.BooleanField(label=label(Component, "showcase"), required=False, initial=True)
    only_show_if_degraded = forms.BooleanField(
        label=label(Component, "only_show_if_degraded"), required=False
    )
    uptime_target = forms.DecimalField(
        label=label(Component, "uptime_target"),
        required=False,
        min_value=0,
        max_value=100,
        max_digits=6,
        decimal_places=3,
        help_text=Component._meta.get_field("uptime_target").help_text,
    )


class MetricForm(forms.Form):
    slug = forms.SlugField(label=label(Metric, "slug"), max_length=50)
    kind = forms.ChoiceField(label=label(Metric, "kind"), choices=MetricKind.choices)
    unit = forms.ChoiceField(label=label(Metric, "unit"), choices=Unit.choices)
    precision = forms.IntegerField(label=label(Metric, "precision"), min_value=0, max_value=6, initial=0)
    aggregation = forms.ChoiceField(label=label(Metric, "aggregation"), choices=Aggregation.choices)
    window = forms.IntegerField(label=label(Metric, "window"), min_value=1, max_value=1000, initial=5)
    expected_interval = forms.IntegerField(
        label=label(Metric, "expected_interval"), min_value=1, max_value=86400, initial=60
    )
    higher_is_worse = forms.BooleanField(label=label(Metric, "higher_is_worse"), required=False, initial=True)
    degraded_threshold = forms.FloatField(label=label(Metric, "degraded_threshold"), required=False)
    partial_outage_threshold = forms.FloatField(
        label=label(Metric, "partial_outage_threshold"), required=False
    )
    major_outage_threshold = forms.FloatField(label=label(Metric, "major_outage_threshold"), required=False)
    position = forms.IntegerField(label=label(Metric, "position"), min_value=0, initial=0)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        add_translated_fields(self, "name", label(Metric, "name"))


class GroupForm(NamedForm):
    slug = forms.SlugField(label=label(ComponentGroup, "slug"), max_length=50)
    position = forms.IntegerField(label=label(ComponentGroup, "position"), min_value=0, initial=0)
