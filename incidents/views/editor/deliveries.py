"""Who was told about an update: its delivery counts (polled while some are queued) and the retry
of the ones that failed."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_POST

from incidents.models import IncidentUpdate
from incidents.services.deliveries import retry_failed_deliveries

from .access import responder_required, viewer_required


def _update(pk: int) -> IncidentUpdate:
    return get_object_or_404(IncidentUpdate.objects.select_related("incident"), pk=pk)


@require_GET
@viewer_required
def deliveries(request, pk: int):
    """The update's delivery block alone, for the incident screen to refresh in place."""
    # The fragment counts the update's deliveries itself (the `told_about` tag).
    return render(request, "editor/_deliveries.html", {"update": _update(pk)})


@require_POST
@responder_required
def retry(request, pk: int):
    update = _update(pk)
    retried = retry_failed_deliveries(update, actor=request.user)
    if retried:
        text = ngettext(
            "%(count)d failed delivery is queued again.",
            "%(count)d failed deliveries are queued again.",
            retried,
        )
        messages.success(request, text % {"count": retried})
    else:
        messages.info(request, gettext("No delivery of this update has failed: nothing to retry."))
    return redirect(reverse("editor:incident", args=[update.incident_id]) + f"#deliveries-{update.pk}")
