"""Telegram: `tgram://bot_token/chat_id[/chat_id…]`, each chat sent the message by the bot as
plain text (Telegram refuses Markdown it cannot parse). A message holds at most 4,096 characters."""

from urllib.parse import quote

from incidents.outbound.client import Answer, BlockingClient

from ..http_posts import send_json
from .base import Message, Target, clip

API = "https://api.telegram.org"
LIMIT = 4096


def _token_and_chats(target: Target) -> tuple[str, list[str]]:
    token = target.netloc.removeprefix("bot")
    if ":" not in token or not target.segments:
        raise ValueError("a Telegram URL names the bot's token and at least one chat")
    return token, target.segments


def origin(target: Target) -> str:
    _token_and_chats(target)
    return API


def send(client: BlockingClient, target: Target, message: Message) -> Answer:
    token, chats = _token_and_chats(target)
    text = clip(f"{message.title}\n\n{message.text}" if message.title else message.text, LIMIT)
    answer = Answer(200)
    for chat in chats:
        payload = {"chat_id": chat, "text": text, "disable_web_page_preview": True}
        answer = send_json(
            client, f"{origin(target)}/bot{quote(token)}/sendMessage", payload, event_id=message.event_id
        )
        if answer.status >= 300:
            break
    return answer
