"""Markdown to HTML that is safe to put on a page.

Markdown is rendered with Python-Markdown, then every tag, attribute and URL scheme outside an
allowlist is removed by nh3 (the ammonia sanitizer). Raw HTML in the source passes through
rendering; the allowlist is the only gate.

Text reads as written: an ordered list keeps the number it starts at, and a lone line such as
"12. september mellom 10:41 og 11:02" (a number, a full stop, a lowercase word) stays a paragraph.
"""

import hashlib
import re
import threading
import xml.etree.ElementTree as etree

import markdown
import nh3
from django.utils.safestring import SafeString, mark_safe
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

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
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "abbr": {"title"},
    "ol": {"start"},
    "td": {"align"},
    "th": {"align"},
}
ALLOWED_URL_SCHEMES = {"http", "https", "mailto"}
LIST_START = re.compile(r"[0-9]{1,9}")


def kept_attribute_value(tag: str, attribute: str, value: str) -> str | None:
    """The value nh3 keeps: an <ol start> only as a plain whole number."""
    if tag == "ol" and attribute == "start":
        return str(int(value)) if LIST_START.fullmatch(value) else None
    return value


class NumberedLinesAsWritten(Treeprocessor):
    """A one-item ordered list whose text begins with a lowercase letter becomes the paragraph
    it was written as: "12. september …" is a date (Norwegian, Danish, German), not item 12."""

    def run(self, root: etree.Element) -> None:
        for element in root.iter():
            for index, child in enumerate(element):
                if is_numbered_line(child):
                    element[index] = numbered_paragraph(child)


def is_numbered_line(element: etree.Element) -> bool:
    if element.tag != "ol" or len(element) != 1:
        return False
    item = element[0]
    return item.tag == "li" and len(item) == 0 and (item.text or "")[:1].islower()


def numbered_paragraph(ordered_list: etree.Element) -> etree.Element:
    paragraph = etree.Element("p")
    paragraph.text = f"{ordered_list.get('start', '1')}. {ordered_list[0].text}"
    paragraph.tail = ordered_list.tail
    return paragraph


class AsWrittenExtension(Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:
        # Before "inline" (20), which would turn the item's text into child elements.
        md.treeprocessors.register(NumberedLinesAsWritten(md), "numbered_lines_as_written", 25)


_local = threading.local()


def _converter() -> markdown.Markdown:
    """One Markdown instance per thread, built once: building one loads every extension."""
    if not hasattr(_local, "converter"):
        _local.converter = markdown.Markdown(
            extensions=["tables", "sane_lists", "fenced_code", AsWrittenExtension()], output_format="html"
        )
    return _local.converter


def render_markdown(text: str) -> SafeString:
    """Sanitised HTML for a Markdown text."""
    html = _converter().reset().convert(text or "")
    clean = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        attribute_filter=kept_attribute_value,
        url_schemes=ALLOWED_URL_SCHEMES,
        link_rel="nofollow noopener noreferrer",
    )
    return mark_safe(clean)  # sanitised by nh3 just above


def quoted_as_written(text: str) -> str:
    """Markdown that shows `text` exactly as written, inert: a fenced code block, so no link,
    image, HTML or mention in it is rendered. The fence is longer than any run of backticks in
    the text, so nothing in the text can close it (CommonMark's rule, and Python-Markdown's)."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text}\n{fence}"


# Feeds show the HTML of dozens of updates per request; rendering Markdown costs more than the
# rest of the request. Services store the HTML of each text when they write it, keyed by a
# digest of the text and of the rules below, so a text changed around the services (the admin)
# or a change of the rules simply misses and is rendered on the spot.

RULES_VERSION = "2"  # bump when the Markdown extensions or the allowlist change


def markdown_digest(text: str) -> str:
    return hashlib.blake2b(f"{RULES_VERSION}\n{text}".encode(), digest_size=12).hexdigest()


def rendered_texts(texts: dict[str, str]) -> dict[str, str]:
    """The sanitised HTML of each text of a translated field, keyed by markdown_digest."""
    return {markdown_digest(text): str(render_markdown(text)) for text in texts.values()}


def stored_or_rendered(text: str, rendered: dict[str, str]) -> SafeString:
    """The HTML stored for `text` by rendered_texts, or rendered now when there is none."""
    html = rendered.get(markdown_digest(text))
    return mark_safe(html) if html is not None else render_markdown(text)  # stored sanitised
