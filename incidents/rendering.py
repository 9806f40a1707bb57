"""Markdown to HTML that is safe to put on a page.

Markdown is rendered with Python-Markdown, then every tag, attribute and URL scheme outside an
allowlist is removed by nh3 (the ammonia sanitizer). Raw HTML in the source passes through
rendering; the allowlist is the only gate.
"""

import hashlib
import threading

import markdown
import nh3
from django.utils.safestring import SafeString, mark_safe

ALLOWED_TAGS = {
    "a",
    "abbr",
    "b",
    "blockquote",
    "br",
    "code",
    "del",
    "em",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "i",
    "li",
    "ol",
    "p",
    "pre",
    "small",
    "strong",
    "sub",
    "sup",
    "table",
    "tbody",
    "td",
    "th",
    "thead",
    "tr",
    "ul",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "td": {"align"}, "th": {"align"}}
ALLOWED_URL_SCHEMES = {"http", "https", "mailto"}


_local = threading.local()


def _converter() -> markdown.Markdown:
    """One Markdown instance per thread, built once: building one loads every extension."""
    if not hasattr(_local, "converter"):
        _local.converter = markdown.Markdown(
            extensions=["tables", "sane_lists", "fenced_code"], output_format="html"
        )
    return _local.converter


def render_markdown(text: str) -> SafeString:
    """Sanitised HTML for a Markdown text."""
    html = _converter().reset().convert(text or "")
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=ALLOWED_URL_SCHEMES,
        link_rel="nofollow noopener noreferrer",
    )
    return mark_safe(clean)  # sanitised by nh3 just above


# HTML rendered when an update is written.
#
# Feeds show the HTML of dozens of updates per request; rendering Markdown costs more than the
# rest of the request. Services store the HTML of each text when they write it, keyed by a
# digest of the text and of the rules below, so a text changed around the services (the admin)
# or a change of the rules simply misses and is rendered on the spot.

RULES_VERSION = "1"  # bump when the Markdown extensions or the allowlist change


def markdown_digest(text: str) -> str:
    return hashlib.blake2b(f"{RULES_VERSION}\n{text}".encode(), digest_size=12).hexdigest()


def rendered_texts(texts: dict[str, str]) -> dict[str, str]:
    """The sanitised HTML of each text of a translated field, keyed by markdown_digest."""
    return {markdown_digest(text): str(render_markdown(text)) for text in texts.values()}


def stored_or_rendered(text: str, rendered: dict[str, str]) -> SafeString:
    """The HTML stored for `text` by rendered_texts, or rendered now when there is none."""
    html = rendered.get(markdown_digest(text))
    return mark_safe(html) if html is not None else render_markdown(text)  # stored sanitised
