"""The editor's overview, the action items dashboard and the audit trail."""

import datetime as dt

from django.core.paginator import Paginator
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from incidents.editor.board import board_context
from incidents.forms.audit import AuditFilterForm
from incidents.models import ActionItem, ActionItemState, AuditEvent, Incident
from incidents.models.postmortems import status_page_today
from incidents.translation import current_language

from .access import viewer_required

RECENT_EVENTS = 10
AUDIT_PAGE_SIZE = 100


@viewer_required
def overview(request):
    context = board_context(language=current_language())
    context["recent"] = Incident.objects.order_by("-started_at")[:RECENT_EVENTS]
    return render(request, "editor/overview.html", context)


def _by_due(item: ActionItem):
    # Items without a due date go last; ties are broken by owner.
    return (item.due_by is None, item.due_by or dt.date.max, item.owner_label.lower())


def _by_owner(item: ActionItem):
    # Items without an owner go last; each owner's items by due date.
    return (not item.owner_label, item.owner_label.lower(), item.due_by is None, item.due_by or dt.date.max)


SORTS = {"due": (_("Due date"), _by_due), "owner": (_("Owner"), _by_owner)}


@viewer_required
def action_items(request):
    today = status_page_today()
    sort = request.GET.get("sort") if request.GET.get("sort") in SORTS else "due"
    only_overdue = request.GET.get("overdue") == "1"
    open_items = ActionItem.objects.filter(state__in=[ActionItemState.OPEN, ActionItemState.IN_PROGRESS])
    items = [
        item
        for item in open_items.select_related("owner", "postmortem__incident")
        if not only_overdue or item.is_overdue(today)
    ]
    items.sort(key=SORTS[sort][1])
    rows = [(item, item.is_overdue(today)) for item in items]
    context = {
        "rows": rows,
        "sort": sort,
        "sorts": [(key, label) for key, (label, _key) in SORTS.items()],
        "only_overdue": only_overdue,
        "overdue_count": sum(1 for _item, overdue in rows if overdue),
    }
    return render(request, "editor/action_items.html", context)


# The audit filter form's fields and the lookups they stand for.
AUDIT_LOOKUPS = {
    "subject_type": "subject_type",
    "subject_id": "subject_id",
    "actor": "actor_label",
    "since": "at__gte",
    "until": "at__lte",
}


@viewer_required
def audit(request):
    form = AuditFilterForm(request.GET or None)
    data = form.cleaned_data if form.is_valid() else {}
    lookups = {lookup: data[field] for field, lookup in AUDIT_LOOKUPS.items() if data.get(field)}
    events = AuditEvent.objects.select_related("actor", "incident").filter(**lookups)
    page = Paginator(events, AUDIT_PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(request, "editor/audit.html", {"form": form, "page": page, "query": query.urlencode()})
