"""Links to the pages of many slugs on one page, reversed once per route rather than once a link."""

from collections.abc import Callable

from django.urls import reverse

# Passes the slug converter and appears nowhere else in a reversed path.
PLACEHOLDER = "slug-placeholder"


def slug_link(route: str) -> Callable[[str], str]:
    """The path of `route` (one taking a `slug`) for any slug, in the active language's prefix."""
    head, tail = reverse(route, kwargs={"slug": PLACEHOLDER}).split(PLACEHOLDER)
    return lambda slug: f"{head}{slug}{tail}"
