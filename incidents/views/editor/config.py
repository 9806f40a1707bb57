"""Admin screens for components, metrics and thresholds, with real numbers to tune against."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from incidents.forms.base import apply_errors, translated_initial, translated_value
from incidents.forms.components import ComponentForm, MetricForm
from incidents.models import AuditEvent, Component, ComponentGroup, Metric, Sample, Subject
from incidents.services.components import save_component
from incidents.services.metrics import save_metric

from .access import admin_required

RECENT_SAMPLES = 30
# The model fields the forms declare; the translated names are added per language.
COMPONENT_FIELDS = tuple(ComponentForm.base_fields)
METRIC_FIELDS = tuple(MetricForm.base_fields)


@admin_required
def components(request):
    rows = Component.objects.select_related("group").prefetch_related("metrics__probe")
    groups = ComponentGroup.objects.all()
    return render(request, "editor/components.html", {"components": rows, "groups": groups})


def recent_samples(metric: Metric) -> list:
    """The metric's latest samples, each with the status its value stands for."""
    recent = Sample.objects.filter(metric=metric).order_by("-at")[:RECENT_SAMPLES]
    return [(s, metric.status_for(s.value) if s.value is not None else None) for s in recent]


@admin_required
def component_new(request):
    return _component_page(request, Component())


@admin_required
def component_detail(request, pk: int):
    return _component_page(request, get_object_or_404(Component, pk=pk))


def _component_page(request, component: Component):
    new = component.pk is None
    initial = {}
    if not new:
        initial = {field: getattr(component, field) for field in COMPONENT_FIELDS}
        initial.update(translated_initial("name", component.name))
        initial.update(translated_initial("description", component.description))
    form = ComponentForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        for field in COMPONENT_FIELDS:
            setattr(component, field, form.cleaned_data[field])
        component.name = translated_value(form, "name")
        component.description = translated_value(form, "description")
        try:
            save_component(component, actor=request.user)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            messages.success(request, _("Component created.") if new else _("Component saved."))
            return redirect("editor:component", component.pk)
    if new:
        return render(request, "editor/component.html", {"form": form, "component": None})
    metric_rows = [(metric, recent_samples(metric)) for metric in component.metrics.select_related("probe")]
    changes = AuditEvent.objects.filter(subject_type=Subject.COMPONENT, subject_id=str(component.pk))
    context = {"form": form, "component": component, "metric_rows": metric_rows, "changes": changes[:20]}
    return render(request, "editor/component.html", context)


@admin_required
def metric_new(request, pk: int):
    return _metric_page(request, Metric(component=get_object_or_404(Component, pk=pk)))


@admin_required
def metric_detail(request, pk: int):
    return _metric_page(request, get_object_or_404(Metric.objects.select_related("component"), pk=pk))


def _metric_page(request, metric: Metric):
    new = metric.pk is None
    initial = {}
    if not new:
        initial = {field: getattr(metric, field) for field in METRIC_FIELDS}
        initial.update(translated_initial("name", metric.name))
    form = MetricForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        for field in METRIC_FIELDS:
            setattr(metric, field, form.cleaned_data[field])
        metric.name = translated_value(form, "name")
        try:
            save_metric(metric, actor=request.user)
        except ValidationError as error:
            apply_errors(form, error)
        else:
            if new:
                messages.success(request, _("Metric created."))
                return redirect("editor:component", metric.component_id)
            messages.success(request, _("Metric saved."))
            return redirect("editor:metric", metric.pk)
    context = {
        "form": form,
        "component": metric.component,
        "metric": None if new else metric,
        "samples": [] if new else recent_samples(metric),
    }
    return render(request, "editor/metric.html", context)
