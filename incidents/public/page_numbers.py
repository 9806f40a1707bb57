"""The page number a paginated public page is asked for, read the same way live and in degraded mode."""

import re

# ASCII digits only: str.isdigit() and int() also take "²" and "٣", which int() then refuses
# or reads as a page nobody linked to.
PAGE_NUMBER = re.compile(r"[0-9]{1,6}")


def page_number(raw: str) -> int:
    """The page the `page` parameter names; anything that is not a page number asks for the first."""
    return max(int(raw), 1) if PAGE_NUMBER.fullmatch(raw) else 1
