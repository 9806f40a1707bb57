"""IANA time zone names as people choose them for an incident's times."""

import zoneinfo
from functools import cache

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Files of the zone database that name no place: the machine's own zone (whatever it is set to)
# and tzdata's placeholder, which shows every time as "-00".
NOT_PLACES = frozenset({"localtime", "Factory", "posixrules"})


@cache
def time_zone_names() -> tuple[str, ...]:
    """Every IANA name of a place this system's time zone database knows, sorted."""
    return tuple(sorted(zoneinfo.available_timezones() - NOT_PLACES))


@cache
def _known() -> frozenset[str]:
    return frozenset(time_zone_names())


def check_time_zone(name: str) -> None:
    """Refuses a name that is not an IANA time zone (blank means the status page's zone)."""
    if name and name not in _known():
        raise ValidationError(
            _("“%(name)s” is not an IANA time zone name such as Europe/Oslo or UTC."),
            code="time_zone",
            params={"name": name},
        )
