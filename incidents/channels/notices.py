"""Messages about a chat or SMS subscription itself, sent straight to its target rather than
through the outbox: the confirmation link to a chat channel, the code to a phone number.

Sending them to the target, not to a contact's mailbox, is what proves that whoever subscribed
can read the channel or the phone: the platform posts nothing else there until the link is
followed or the code entered. They go through the same guarded client (Apprise, for the SMS
provider) as notifications.
"""

from django.core.exceptions import ValidationError

from incidents.models import Channel
from incidents.outbound.client import Answer
from incidents.outbound.guard import check_sendable

from . import chat_services, slack, sms, teams
from .base import Sent
from .chat_services.base import Message
from .http_posts import guarded_client, send_json


def send_notice(channel: str, target: str, *, title: str, text: str, link: str, event_id: str) -> str:
    """Posts one message with `link` (may be empty) to the target; the error, or "" when the
    service accepted it. Raises what the guarded client raises for an unreachable receiver."""
    channel = Channel(channel)
    if channel == Channel.SMS:
        return sms.send_text(target, f"{text} {link}".strip(), event_id=event_id).error
    if channel == Channel.APPRISE:
        message = Message(title=title, text=f"{text}\n\n{link}".strip(), event_id=event_id)
        with guarded_client() as client:
            outcome = chat_services.send_message(client, target, message)
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome.error if isinstance(outcome, Sent) else _error_of(outcome)
    payload = (
        _slack_payload(title, text, link) if channel == Channel.SLACK else _teams_payload(title, text, link)
    )
    return _post_json(target, payload, event_id=event_id)


def _slack_payload(title: str, text: str, link: str) -> dict:
    line = f"*{slack.escaped(title)}*\n{slack.escaped(text)}"
    return {"text": f"{line}\n<{link}>" if link else line}


def _teams_payload(title: str, text: str, link: str) -> dict:
    card = {
        "$schema": teams.CARD_SCHEMA,
        "type": "AdaptiveCard",
        "version": teams.CARD_VERSION,
        "body": [teams.text_block(title, weight="Bolder"), teams.text_block(text)],
        "actions": [{"type": "Action.OpenUrl", "title": title, "url": link}] if link else [],
    }
    return {
        "type": "message",
        "attachments": [{"contentType": teams.CARD_CONTENT_TYPE, "contentUrl": None, "content": card}],
    }


def _post_json(url: str, payload: dict, *, event_id: str) -> str:
    try:
        check_sendable(url)
    except ValidationError as error:
        return f"Address refused: {' '.join(error.messages)}"
    with guarded_client() as client:
        return _error_of(send_json(client, url, payload, event_id=event_id))


def _error_of(answer: Answer) -> str:
    return "" if answer.status < 300 else f"HTTP {answer.status} from the receiver"
