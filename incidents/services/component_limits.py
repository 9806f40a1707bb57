"""How many components a page may hold and one import may create (docs/public-site.md).

Nothing else bounded them: one Statuspage export of 137 KB named thousands, and every page that
lists components grew with them. Each limit is a setting; a refusal names it.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from incidents.models import Component


def check_room_for_components(*, adding: int = 1) -> None:
    """Refuses adding `adding` components when the page would then hold more than
    PAGE_MAX_COMPONENTS."""
    limit = settings.PAGE_MAX_COMPONENTS
    held = Component.objects.count()
    if held + adding > limit:
        raise ValidationError(
            _(
                "A page holds at most %(limit)s components (PAGE_MAX_COMPONENTS); this one "
                "holds %(held)s, so %(adding)s more cannot be added."
            ),
            code="too_many_components",
            params={"limit": limit, "held": held, "adding": adding},
        )


def check_import_creates(*, creating: int) -> None:
    """Refuses an import that would create more than IMPORT_MAX_NEW_COMPONENTS components."""
    limit = settings.IMPORT_MAX_NEW_COMPONENTS
    if creating > limit:
        raise ValidationError(
            _(
                "The export names %(creating)s components this page does not have; one import creates "
                "at most %(limit)s (IMPORT_MAX_NEW_COMPONENTS)."
            ),
            code="too_many_new_components",
            params={"limit": limit, "creating": creating},
        )
