"""What the declare and update forms' script reads: templates, the impact proposal, default texts."""

from incidents.forms.update_templates import template_data
from incidents.lifecycle.proposals import (
    IMPACT_FOR_STATUS,
    IMPACT_ORDER,
    default_update_texts,
    proposed_impact,
)
from incidents.models import Component, IncidentKind, UpdateTemplate
from incidents.selectors.public import PAGE_ORDER
from incidents.translation import language_codes
from incidents.validation.row_ids import is_row_id


def form_components() -> list[Component]:
    """Every component, in page order, for the forms that set component statuses."""
    return list(Component.objects.select_related("group").order_by(*PAGE_ORDER))


def chosen_template(request) -> UpdateTemplate | None:
    """The template named by `?template=<id>`, or None for a missing or malformed id."""
    template_id = request.GET.get("template", "")
    if not is_row_id(template_id):
        return None
    return UpdateTemplate.objects.filter(pk=template_id).first()


def template_context(request, kind: IncidentKind | str) -> dict:
    """The templates of `kind`, the one `?template=` chose, and the data for static/js/declare.js
    (`aids`, served as a JSON script element, never executed)."""
    templates = list(UpdateTemplate.objects.filter(kind=kind).order_by("name", "language"))
    aids = {
        "templates": [template_data(template) for template in templates],
        "impactForStatus": {status.value: impact.value for status, impact in IMPACT_FOR_STATUS.items()},
        "impactOrder": [impact.value for impact in IMPACT_ORDER],
        "impactWithoutComponents": proposed_impact([]).value,
        "defaultTexts": {code: default_update_texts(language=code) for code in language_codes()},
    }
    return {"templates": templates, "chosen": chosen_template(request), "aids": aids}
