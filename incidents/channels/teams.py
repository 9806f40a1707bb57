"""Microsoft Teams: one Adaptive Card (schema 1.4, which Teams renders) per update, posted to a
Teams (Workflows) webhook URL. Teams refuses messages over about 28 KB, so the text and the list
of components are bounded.
"""

from django.utils import translation
from django.utils.translation import gettext as _

from .chat_content import ChatContent, clip
from .emails import MANAGE_MARKER
from .http_posts import check_webhook_url, masked_url, post_notice

BODY_LIMIT = 8000
MAX_COMPONENTS = 60

check_target = check_webhook_url
shown_target = masked_url


def text_block(text: str, **style: object) -> dict:
    return {"type": "TextBlock", "text": text, "wrap": True, **style}


def fact_set(facts: list[tuple[str, str]]) -> dict:
    return {"type": "FactSet", "facts": [{"title": title, "value": value} for title, value in facts]}


def component_facts(content: ChatContent) -> list[tuple[str, str]]:
    facts = [
        (
            clip(component.name, 200),
            component.status_label + (f" · {component.figure}" if component.figure else ""),
        )
        for component in content.components[:MAX_COMPONENTS]
    ]
    hidden = len(content.components) - MAX_COMPONENTS
    return facts + [("…", _("and %(count)s more") % {"count": hidden})] if hidden > 0 else facts


def card(content: ChatContent) -> dict:
    update = content.content
    with translation.override(update.language):
        body = [
            text_block(clip(content.title, 500), size="Large", weight="Bolder"),
            fact_set([(_("Status"), update.status_label), (_("Impact"), content.impact_label)]),
        ]
        if content.body.strip():
            body.append(text_block(clip(content.body, BODY_LIMIT)))
        if content.components:
            body.append(text_block(_("Affected components"), weight="Bolder", separator=True))
            body.append(fact_set(component_facts(content)))
        body.append(text_block(f"{update.page_name} · {update.shown_at}", size="Small", isSubtle=True))
        actions = [(_("View incident"), content.url), (_("Manage subscription"), MANAGE_MARKER)]
        return card_message(body, actions, lang=update.language, fallbackText=content.heading)


def card_message(body: list[dict], actions: list[tuple[str, str]], **card: object) -> dict:
    """A `message` carrying one Adaptive Card with `body` and a button per (title, url)."""
    card = {
        "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
        "type": "AdaptiveCard",
        "version": "1.4",
        **card,
        "body": body,
        "actions": [{"type": "Action.OpenUrl", "title": title, "url": url} for title, url in actions],
    }
    return {
        "type": "message",
        "attachments": [
            {"contentType": "application/vnd.microsoft.card.adaptive", "contentUrl": None, "content": card}
        ],
    }


def notice(target: str, *, title: str, text: str, link: str, event_id: str) -> str:
    body = [text_block(title, weight="Bolder"), text_block(text)]
    return post_notice(target, card_message(body, [(title, link)] if link else []), event_id=event_id)
