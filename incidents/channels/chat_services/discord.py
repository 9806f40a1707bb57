"""Discord: `discord://[name@]webhook_id/webhook_token`, posted to the channel's webhook, with no
mention acted on. A message holds at most 2,000 characters."""

from urllib.parse import quote

from incidents.outbound.client import Answer, BlockingClient

from ..http_posts import send_json
from .base import Message, Target, clip

API = "https://discord.com"
LIMIT = 2000


def origin(target: Target) -> str:
    if not target.host or not target.segments:
        raise ValueError("a Discord URL names the webhook's id and token")
    return API


def send(client: BlockingClient, target: Target, message: Message) -> Answer:
    webhook_id, token = target.netloc.rpartition("@")[2], target.segments[0]
    content = f"**{message.title}**\n{message.text}" if message.title else message.text
    payload: dict = {"content": clip(content, LIMIT), "allowed_mentions": {"parse": []}}
    if target.user:
        payload["username"] = target.user
    url = f"{origin(target)}/api/webhooks/{quote(webhook_id)}/{quote(token)}"
    return send_json(client, url, payload, event_id=message.event_id)
