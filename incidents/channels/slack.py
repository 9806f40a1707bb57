"""Slack incoming webhooks: one Block Kit message per update, with a top-level `text` fallback
for notifications and clients that do not show blocks. Slack refuses a message over its limits
(a header over 150 characters, a section text over 3,000, more than 50 blocks), so every text is
clipped to them.
"""

import re

from django.utils import translation
from django.utils.translation import gettext as _

from .chat_content import ChatContent
from .emails import MANAGE_MARKER
from .http_posts import check_webhook_url, masked_url, post_notice

HEADER_LIMIT = 150
SECTION_LIMIT = 3000
FIELD_LIMIT = 2000
BUTTON_LIMIT = 75
MAX_BLOCKS = 50

check_target = check_webhook_url
shown_target = masked_url


def escaped(text: str) -> str:
    """Slack's mrkdwn treats only these three characters as control characters."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    # Never end on half an entity escaped() wrote.
    return re.sub(r"&[a-z]*$", "", text[: limit - 1]) + "…"


MARKDOWN_BOLD = re.compile(r"\*\*(.+?)\*\*")
MARKDOWN_LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")


def mrkdwn(markdown: str) -> str:
    """The update's Markdown as Slack mrkdwn: bold and links; the rest reads fine as it is."""
    text = escaped(markdown)
    text = MARKDOWN_BOLD.sub(r"*\1*", text)
    return MARKDOWN_LINK.sub(lambda m: f"<{m.group(2)}|{m.group(1)}>", text)


def section(text: str) -> dict:
    return {"type": "section", "text": _text("mrkdwn", text, SECTION_LIMIT)}


def with_count_of_rest(shown: list[str], *, hidden: int) -> str:
    """The last section's lines and "…and N more", dropping whole lines until both fit."""
    while True:
        more = _("…and %(count)s more") % {"count": hidden}
        text = "\n".join([*shown, more])
        if len(text) <= SECTION_LIMIT or len(shown) == 1:
            return clip(text, SECTION_LIMIT)
        shown.pop()
        hidden += 1


def component_sections(content: ChatContent, room: int) -> list[dict]:
    """The components, as few sections as fit; past `room` sections the rest is counted."""
    lines = []
    for component in content.components:
        line = f"• *{escaped(component.name)}*: {escaped(component.status_label)}"
        if component.figure:
            line += f" · {escaped(component.figure)}"
        lines.append(clip(line, SECTION_LIMIT))
    sections: list[str] = []
    for index, line in enumerate(lines):
        if sections and len(sections[-1]) + 1 + len(line) <= SECTION_LIMIT:
            sections[-1] += "\n" + line
        elif len(sections) < room:
            sections.append(line)
        else:
            sections[-1] = with_count_of_rest(sections[-1].split("\n"), hidden=len(lines) - index)
            break
    return [section(text) for text in sections]


def _text(kind: str, text: str, limit: int) -> dict:
    return {"type": kind, "text": clip(text, limit)}


def _button(label: str, url: str) -> dict:
    return {"type": "button", "text": _text("plain_text", label, BUTTON_LIMIT), "url": url}


def message(content: ChatContent) -> dict:
    update = content.content
    with translation.override(update.language):
        fields = [(_("Status"), update.status_label), (_("Impact"), content.impact_label)]
        blocks: list[dict] = [
            {"type": "header", "text": _text("plain_text", content.title, HEADER_LIMIT)},
            {
                "type": "section",
                "fields": [
                    _text("mrkdwn", f"*{name}*\n{escaped(value)}", FIELD_LIMIT) for name, value in fields
                ],
            },
        ]
        if content.body.strip():
            blocks.append(section(mrkdwn(content.body)))
        stamp = escaped(f"{update.page_name} · {update.shown_at}")
        tail = [
            {"type": "context", "elements": [_text("mrkdwn", stamp, SECTION_LIMIT)]},
            {
                "type": "actions",
                "elements": [
                    _button(_("View incident"), content.url),
                    _button(_("Manage subscription"), MANAGE_MARKER),
                ],
            },
        ]
        if content.components:
            blocks.append({"type": "divider"})
            blocks.extend(component_sections(content, room=MAX_BLOCKS - len(blocks) - len(tail)))
        blocks.extend(tail)
        link = f"<{content.url}|{escaped(_('View incident'))}>"
        fallback = clip(escaped(content.heading), SECTION_LIMIT - len(link) - 1) + " " + link
        return {"text": fallback, "blocks": blocks}


def notice(target: str, *, title: str, text: str, link: str, event_id: str) -> str:
    line = f"*{escaped(title)}*\n{escaped(text)}"
    return post_notice(target, {"text": f"{line}\n<{link}>" if link else line}, event_id=event_id)
