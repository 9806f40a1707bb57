"""Alert intake in the editor: the rules (admins edit) and every alert received, unknown first."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Case, IntegerField, When
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from incidents.forms.base import apply_errors
from incidents.models import AlertRule, AuditEvent, IntakeAlert, Subject
from incidents.roles import can_administer
from incidents.views.editor.access import admin_required, viewer_required

from .forms import AlertRuleForm
from .rules import delete_alert_rule, save_alert_rule

RECENT_ALERTS = 100
RULE_FIELDS = ("name", "source", "matchers", "component", "status", "open_incident", "position", "enabled")


@viewer_required
def intake_overview(request):
    unknown_first = Case(When(rule__isnull=True, then=0), default=1, output_field=IntegerField())
    alerts = IntakeAlert.objects.select_related("rule", "component", "incident").order_by(
        unknown_first, "-last_received_at", "-id"
    )[:RECENT_ALERTS]
    context = {
        "rules": AlertRule.objects.select_related("component"),
        "alerts": alerts,
        "can_edit": can_administer(request.user),
        "alertmanager_url": request.build_absolute_uri(reverse("api:intake-alertmanager")),
        "grafana_url": request.build_absolute_uri(reverse("api:intake-grafana")),
        "tokens_url": reverse("editor:api-tokens"),
    }
    return render(request, "intake/overview.html", context)


def _save(request, form: AlertRuleForm, rule: AlertRule) -> AlertRule | None:
    for field in RULE_FIELDS:
        setattr(rule, field, form.cleaned_data[field])
    try:
        return save_alert_rule(rule, actor=request.user)
    except ValidationError as error:
        apply_errors(form, error)
        return None


@admin_required
def rule_new(request):
    initial = {}
    alert = request.GET.get("from_alert", "")
    if alert:
        # "Write a rule for this": the unknown alert's own labels, to keep or trim.
        found = IntakeAlert.objects.filter(public_id=alert).first()
        if found is not None:
            initial = {"name": found.name, "source": found.source, "matchers": _as_matchers(found.labels)}
    form = AlertRuleForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        if _save(request, form, AlertRule()) is not None:
            messages.success(request, _("Alert rule created."))
            return redirect("editor:intake")
    return render(request, "intake/alert_rule.html", {"form": form, "rule": None})


def _as_matchers(labels: dict) -> str:
    return "\n".join(f'{name}="{value}"' for name, value in sorted(labels.items()) if name != "instance")


@admin_required
def rule_detail(request, pk: int):
    rule = get_object_or_404(AlertRule.objects.select_related("component"), pk=pk)
    initial = {field: getattr(rule, field) for field in RULE_FIELDS}
    initial["matchers"] = "\n".join(rule.matchers)
    form = AlertRuleForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        if _save(request, form, rule) is not None:
            messages.success(request, _("Alert rule saved."))
            return redirect("editor:intake")
        rule = AlertRule.objects.select_related("component").get(pk=pk)
    changes = AuditEvent.objects.filter(subject_type=Subject.ALERT_RULE, subject_id=str(rule.pk))[:20]
    return render(request, "intake/alert_rule.html", {"form": form, "rule": rule, "changes": changes})


@admin_required
@require_POST
def rule_delete(request, pk: int):
    delete_alert_rule(get_object_or_404(AlertRule, pk=pk), actor=request.user)
    messages.success(request, _("Alert rule deleted; the alerts it took are listed as unknown."))
    return redirect("editor:intake")
