"""Admin screens for probe regions: the list, adding and editing one, and issuing its key.

A region's key is shown once, in the answer to the POST that made it (never stored in a message
or the session); the page says how to start the region's worker with it."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from incidents.editor.region_worker import worker_command
from incidents.forms.base import apply_errors
from incidents.forms.regions import ProbeRegionForm
from incidents.models import AuditEvent, ProbeRegion, Subject
from incidents.services.regions import key_of, rotate_region_key, save_region

from .access import admin_required


@admin_required
def region_list(request):
    regions = ProbeRegion.objects.annotate(chosen_by=Count("probes"))
    return render(request, "editor/regions.html", {"regions": regions})


def _save(request, form: ProbeRegionForm) -> ProbeRegion | None:
    try:
        return save_region(form.instance, actor=request.user)
    except ValidationError as error:
        apply_errors(form, error)
        return None


def _key_page(request, region: ProbeRegion, key: str):
    """The one page that shows a region's key (never cached: see access)."""
    return render(
        request,
        "editor/region_key.html",
        {"region": region, "key": key, "command": worker_command(region, key)},
    )


@admin_required
def region_new(request):
    form = ProbeRegionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        region = _save(request, form)
        if region is not None:
            messages.success(request, _("Region added."))
            return _key_page(request, region, key_of(region))
    return render(request, "editor/region.html", {"form": form, "region": None})


@admin_required
def region_detail(request, pk: int):
    region = get_object_or_404(ProbeRegion, pk=pk)
    old_name = region.name
    form = ProbeRegionForm(request.POST or None, instance=region)
    if request.method == "POST" and form.is_valid():
        saved = _save(request, form)
        if saved is not None:
            messages.success(request, _("Region saved."))
            if saved.name != old_name and not saved.is_home:
                # Its key follows its name: the region's workers need the new one.
                return _key_page(request, saved, key_of(saved))
            return redirect("editor:region", saved.pk)
        region = ProbeRegion.objects.get(pk=pk)
    changes = AuditEvent.objects.filter(subject_type=Subject.PROBE_REGION, subject_id=str(region.pk))[:20]
    return render(request, "editor/region.html", {"form": form, "region": region, "changes": changes})


@admin_required
@require_POST
def region_key(request, pk: int):
    region = get_object_or_404(ProbeRegion, pk=pk)
    if region.is_home:
        messages.error(request, _("The home region's workers use the database, not a key."))
        return redirect("editor:region", region.pk)
    return _key_page(request, region, rotate_region_key(region, actor=request.user))
