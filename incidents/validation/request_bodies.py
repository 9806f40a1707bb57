"""Request bodies read no further than the bound of their endpoint.

Django's own bound (DATA_UPLOAD_MAX_MEMORY_SIZE) is a SuspiciousOperation answered with the
site's HTML 400; endpoints that answer JSON read their body through here and refuse a larger one
with a JSON 413 naming the body.
"""

from django.utils.translation import gettext as _


def read_body_within(request, *, limit: int) -> bytes | None:
    """The body, or None when it is larger than `limit` bytes (read no further than that)."""
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0
    if declared > limit:
        return None
    body = request.read(limit + 1)
    return None if len(body) > limit else body


def body_too_large(limit: int) -> str:
    """The message of a refused body."""
    return _("The body is too large: at most %(limit)s bytes.") % {"limit": limit}
