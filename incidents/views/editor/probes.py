"""Admin screens for probes: what each one measures, how its runs went, and the numbers it feeds.

Push tokens and webhook secrets are shown once, in the answer to the POST that made them (never
stored in a message or the session)."""

import json

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import OuterRef, Subquery
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from incidents.forms.base import apply_errors
from incidents.forms.probes import ProbeForm
from incidents.models import AuditEvent, CircuitBreaker, Probe, ProbeKind, ProbeRun, Subject
from incidents.probes.base import target_of
from incidents.security.masking import masked_probe_fields
from incidents.services.probes import issue_push_token, rotate_webhook_secret, save_probe
from incidents.validation.row_ids import is_row_id

from .access import admin_required
from .config import recent_samples

RECENT_RUNS = 20
PROBE_FIELDS = tuple(name for name in ProbeForm.base_fields if name not in ("metric", "regions"))


def _breakers_for(probes) -> dict[str, CircuitBreaker]:
    targets = {target_of(p.url) for p in probes if p.url}
    return CircuitBreaker.objects.in_bulk(targets, field_name="target") if targets else {}


@admin_required
def probe_list(request):
    last_run = ProbeRun.objects.filter(probe=OuterRef("pk")).order_by("-scheduled_at").values("pk")[:1]
    probes = list(Probe.objects.select_related("metric__component").annotate(last_run_id=Subquery(last_run)))
    runs = ProbeRun.objects.in_bulk([p.last_run_id for p in probes if p.last_run_id])
    breakers = _breakers_for(probes)
    rows = [
        (probe, runs.get(probe.last_run_id), breakers.get(target_of(probe.url)) if probe.url else None)
        for probe in probes
    ]
    return render(request, "editor/probes.html", {"rows": rows})


def _save(request, form: ProbeForm, probe: Probe) -> Probe | None:
    """Saves through the service; its refusals (kind config, address guard, bounds) become form errors."""
    for field in (*PROBE_FIELDS, "metric"):
        setattr(probe, field, form.cleaned_data[field])
    try:
        return save_probe(probe, actor=request.user, regions=form.cleaned_data["regions"])
    except ValidationError as error:
        apply_errors(form, error, renamed={"metric_id": "metric"})
        return None


def _credentials_page(request, probe: Probe, *, token: str = "", secret: str = ""):
    """The one page that shows a new push token or webhook secret (never cached: see access)."""
    return render(
        request, "editor/probe_credentials.html", {"probe": probe, "token": token, "secret": secret}
    )


@admin_required
def probe_new(request):
    initial = {"config": "{}"}
    if request.method == "GET" and is_row_id(request.GET.get("metric")):
        initial["metric"] = request.GET["metric"]
    form = ProbeForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        probe = _save(request, form, Probe())
        if probe is not None:
            messages.success(request, _("Probe created."))
            if probe.kind == ProbeKind.PUSH:
                return _credentials_page(request, probe, token=issue_push_token(probe, actor=request.user))
            if probe.kind == ProbeKind.WEBHOOK:
                return _credentials_page(request, probe, secret=probe.webhook_secret)
            return redirect("editor:probe", probe.pk)
    return _page(request, None, form)


def _duration_ms(run: ProbeRun) -> int | None:
    if run.started_at is None or run.finished_at is None:
        return None
    return round((run.finished_at - run.started_at).total_seconds() * 1000)


def _page(request, probe: Probe | None, form: ProbeForm):
    context = {"form": form, "probe": probe, "runs": [], "samples": [], "metric": None, "breaker": None}
    if probe is not None:
        context.update(
            metric=probe.metric,
            runs=[(run, _duration_ms(run)) for run in probe.runs.order_by("-scheduled_at")[:RECENT_RUNS]],
            samples=recent_samples(probe.metric),
            breaker=_breakers_for([probe]).get(target_of(probe.url)) if probe.url else None,
            changes=AuditEvent.objects.filter(subject_type=Subject.PROBE, subject_id=str(probe.pk))[:20],
            receiver_url=request.build_absolute_uri(
                reverse(
                    "probes:push" if probe.kind == ProbeKind.PUSH else "probes:webhook",
                    args=[probe.public_id],
                )
            ),
        )
    return render(request, "editor/probe.html", context)


@admin_required
def probe_detail(request, pk: int):
    probe = get_object_or_404(Probe.objects.select_related("metric__component"), pk=pk)
    # Credentials are write-only: the form shows their masks, and saving them back keeps them.
    initial = masked_probe_fields({field: getattr(probe, field) for field in PROBE_FIELDS})
    initial["config"] = json.dumps(initial["config"], indent=2, ensure_ascii=False)
    initial["metric"] = probe.metric_id
    initial["regions"] = list(probe.regions.values_list("pk", flat=True))
    form = ProbeForm(request.POST or None, initial=initial, probe=probe)
    if request.method == "POST" and form.is_valid():
        was_webhook = probe.kind == ProbeKind.WEBHOOK
        saved = _save(request, form, probe)
        if saved is not None:
            messages.success(request, _("Probe saved."))
            if saved.kind == ProbeKind.WEBHOOK and not was_webhook:
                # It just became a webhook probe: its new secret is shown this once.
                return _credentials_page(request, saved, secret=saved.webhook_secret)
            return redirect("editor:probe", saved.pk)
        # The instance may hold the refused values: show the stored probe beside the form.
        probe = Probe.objects.select_related("metric__component").get(pk=pk)
    return _page(request, probe, form)


@admin_required
@require_POST
def probe_token(request, pk: int):
    probe = get_object_or_404(Probe, pk=pk)
    if probe.kind != ProbeKind.PUSH:
        messages.error(request, _("Only push probes have tokens."))
        return redirect("editor:probe", probe.pk)
    return _credentials_page(request, probe, token=issue_push_token(probe, actor=request.user))


@admin_required
@require_POST
def probe_secret(request, pk: int):
    probe = get_object_or_404(Probe, pk=pk)
    if probe.kind != ProbeKind.WEBHOOK:
        messages.error(request, _("Only webhook probes have a signing secret."))
        return redirect("editor:probe", probe.pk)
    return _credentials_page(request, probe, secret=rotate_webhook_secret(probe, actor=request.user))
