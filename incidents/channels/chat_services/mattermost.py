"""Mattermost: `mmost[s]://[name@]host[:port][/path]/webhook_token`, posted to the server's
incoming webhook (`/hooks/<token>`), which renders the Markdown."""

from urllib.parse import quote

from incidents.outbound.client import Answer, BlockingClient

from ..http_posts import send_json
from .base import Message, Target


def origin(target: Target) -> str:
    if not target.host or not target.segments:
        raise ValueError("a Mattermost URL names the server and the webhook's token")
    return target.origin(secure=target.scheme == "mmosts")


def send(client: BlockingClient, target: Target, message: Message) -> Answer:
    *path, token = target.segments
    url = origin(target) + "".join(f"/{quote(part)}" for part in path) + f"/hooks/{quote(token)}"
    payload = {"text": f"#### {message.title}\n{message.text}" if message.title else message.text}
    if target.user:
        payload["username"] = target.user
    return send_json(client, url, payload, event_id=message.event_id)
