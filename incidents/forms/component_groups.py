"""Components under their groups' names, as the overview shows them, for the forms that list them."""

import itertools
from operator import attrgetter

from django.utils.translation import gettext as _

from incidents.models import Component
from incidents.translation import current_language, pick


def shown_name(texts: dict, obj) -> str:
    """A translated name in the page's language, falling back to the record's own."""
    return pick(texts, language=current_language(), original=obj.original_language).text


def components_by_group(components) -> list[tuple[str, list[Component]]]:
    """Components (in page order, their groups loaded) under their groups' names; one list with
    no name when they are all in one group (or none), so a single group is not headed."""
    grouped = [
        (group, list(members)) for group, members in itertools.groupby(components, key=attrgetter("group"))
    ]
    if len(grouped) == 1:
        return [("", grouped[0][1])]
    return [
        (shown_name(group.name, group) if group else _("Other components"), members)
        for group, members in grouped
    ]
