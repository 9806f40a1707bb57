"""The public status pages."""

from django.shortcuts import render
from django.utils.translation import get_language

from incidents import selectors


def overview(request):
    groups = selectors.grouped_components()
    components = [c for g in groups for c in g.components]
    context = {
        "groups": groups,
        "page_status": selectors.page_status(components),
        "open_incidents": list(selectors.open_incidents()),
        "language": get_language(),
    }
    return render(request, "public/overview.html", context)
