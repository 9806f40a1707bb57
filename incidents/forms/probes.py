"""The probe form: its kind's settings as a JSON object, checked for shape here and in depth by the kind."""

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from incidents.models import Metric, Probe, ProbeKind, ProbeRegion
from incidents.translation import current_language, pick
from incidents.validation.json_bodies import UnstorableText, loads_bounded

from .base import component_label, label

PROBE_CONFIG_MAX_CHARS = 16_384


class ProbeForm(forms.Form):
    """A probe as typed in the editor; the kind's module and `validate_probe` do the real checks."""

    name = forms.CharField(label=label(Probe, "name"), max_length=120)
    kind = forms.ChoiceField(label=label(Probe, "kind"), choices=ProbeKind.choices)
    metric = forms.ModelChoiceField(label=label(Probe, "metric"), queryset=Metric.objects.none())
    enabled = forms.BooleanField(label=label(Probe, "enabled"), required=False, initial=True)
    url = forms.CharField(
        label=label(Probe, "url"),
        max_length=500,
        required=False,
        help_text=_("What the probe calls (empty for push probes)."),
    )
    config = forms.CharField(
        label=label(Probe, "config"),
        required=False,
        initial="{}",
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
        help_text=_("Settings of this kind of probe, as a JSON object (see the probes documentation)."),
    )
    interval = forms.IntegerField(label=label(Probe, "interval"), initial=60)
    connect_timeout = forms.FloatField(label=label(Probe, "connect_timeout"), initial=3.0)
    read_timeout = forms.FloatField(label=label(Probe, "read_timeout"), initial=5.0)
    timeout = forms.FloatField(label=label(Probe, "timeout"), initial=5.0)
    regions = forms.ModelMultipleChoiceField(
        label=label(Probe, "regions"),
        queryset=ProbeRegion.objects.all(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Where the probe runs from. None chosen: every active region. Push and webhook probes "
            "are measured where the site runs."
        ),
    )

    def __init__(self, *args, probe=None, **kwargs):
        super().__init__(*args, **kwargs)
        # A metric is fed by one probe: offer the metrics without one (and this probe's own).
        unfed = models.Q(probe__isnull=True)
        if probe is not None and probe.pk:
            unfed |= models.Q(probe=probe)
        metrics = Metric.objects.select_related("component").filter(unfed)
        self.fields["metric"].queryset = metrics.order_by("component__position", "position", "pk")
        self.fields["metric"].label_from_instance = metric_label
        self.fields["regions"].label_from_instance = region_label

    def clean_config(self):
        text = (self.cleaned_data.get("config") or "").strip() or "{}"
        if len(text) > PROBE_CONFIG_MAX_CHARS:
            raise ValidationError(
                _("The settings are too long (at most %(limit)s characters)."),
                params={"limit": PROBE_CONFIG_MAX_CHARS},
            )
        try:
            config = loads_bounded(text, parse_constant=_refuse_json_constant)
        except UnstorableText as error:
            raise ValidationError(str(error)) from None
        except ValueError:
            raise ValidationError(_("The settings must be valid JSON.")) from None
        if not isinstance(config, dict):
            raise ValidationError(_("The settings must be a JSON object."))
        return config


def metric_label(metric: Metric) -> str:
    name = pick(metric.name, language=current_language()).text or metric.slug
    return f"{component_label(metric.component)} — {name}"


def region_label(region: ProbeRegion) -> str:
    return region.name if region.active else _("%(name)s (inactive)") % {"name": region.name}


def _refuse_json_constant(name: str):
    raise ValueError(name)
