"""Who was told: the deliveries that gave up (all, or one update's), an update's delivery counts
(polled while some are queued), and the retry of the ones that failed."""

from django.contrib import messages
from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_POST

from incidents import roles
from incidents.models import Delivery, DeliveryState, IncidentUpdate
from incidents.services.deliveries import retry_failed_deliveries, retry_failed_delivery
from incidents.validation.row_ids import is_row_id

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


@require_GET
@viewer_required
def failed_deliveries(request):
    """Deliveries that gave up, and counts by state; recipients and errors for admins only."""
    shown, update = Delivery.objects.all(), None
    update_id = request.GET.get("update")
    if update_id is not None:
        if not is_row_id(update_id):
            return HttpResponse(gettext("update: expected the number of an update."), status=400)
        update = _update(update_id)
        shown = shown.filter(update=update)
    counts = dict(shown.values_list("state").annotate(n=Count("id")).order_by())
    failed = (
        shown.filter(state=DeliveryState.FAILED)
        .select_related("subscriber", "update__incident", "status_change__component")
        .order_by("-created_at", "-id")[:200]
    )
    context = {
        "update": update,
        "counts": [(state, counts.get(state.value, 0)) for state in DeliveryState],
        "failed": failed,
        "can_retry": roles.can_respond(request.user),
        # Addresses and webhook URLs (which often embed a secret), and errors that may quote them,
        # are shown to those who may read subscribers in the API: admins.
        "reveal_recipients": roles.can_administer(request.user),
    }
    return render(request, "editor/deliveries.html", context)


@require_POST
@responder_required
def retry_one(request, pk: int):
    retry_failed_delivery(get_object_or_404(Delivery, pk=pk), actor=request.user)
    return redirect("editor:deliveries")
