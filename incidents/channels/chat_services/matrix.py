"""Matrix: `matrix[s]://access_token@host[:port]/#room` (or `user:password@host`, which logs in
first), each room joined and sent the message through the client-server API of the homeserver
the URL names: no `.well-known` discovery, which would name another host to send the token to.

The event's transaction id is the notification's event id, so the homeserver drops a retry it
already has. `?verify=no` (a homeserver with its own certificate) is honoured as Apprise did.
"""

import json
from functools import partial
from urllib.parse import quote

from incidents.outbound.client import Answer, BlockingClient
from incidents.rendering import render_markdown

from ..http_posts import send_json
from .base import Message, Target


def rooms(target: Target) -> list[str]:
    """The rooms as the homeserver knows them: an alias without its server is on `host`."""
    named = [room for room in target.segments if room.lstrip("#!")]
    return [
        room if ":" in room or room.startswith("!") else f"#{room.lstrip('#')}:{target.host}"
        for room in named
    ]


def origin(target: Target) -> str:
    if not target.host or not (target.user or target.password) or not rooms(target):
        raise ValueError("a Matrix URL names an access token, the homeserver and a room")
    return target.origin(secure=target.scheme == "matrixs")


def _answered(answer: Answer, key: str) -> str:
    value = json.loads(answer.body or b"{}").get(key)
    if not isinstance(value, str):
        raise ValueError(f"the homeserver's answer has no {key}")
    return value


def send(client: BlockingClient, target: Target, message: Message) -> Answer:
    api = origin(target) + "/_matrix/client/v3"
    verify = target.query.get("verify", "yes") not in ("no", "false")
    request = partial(send_json, client, event_id=message.event_id, verify=verify)
    token = target.password or target.user
    if target.user and target.password:
        login = {"type": "m.login.password", "identifier": {"type": "m.id.user", "user": target.user}}
        answer = request(f"{api}/login", {**login, "password": target.password})
        if answer.status >= 300:
            return answer
        token = _answered(answer, "access_token")
    authorised = partial(request, extra_headers={"Authorization": f"Bearer {token}"})
    text = f"**{message.title}**\n\n{message.text}" if message.title else message.text
    event = {
        "msgtype": "m.text",
        "body": text,
        "format": "org.matrix.custom.html",
        "formatted_body": str(render_markdown(text)),
    }
    for room in rooms(target):
        answer = authorised(f"{api}/join/{quote(room, safe='')}", {})
        if answer.status >= 300:
            return answer
        room_id = quote(_answered(answer, "room_id"), safe="")
        answer = authorised(
            f"{api}/rooms/{room_id}/send/m.room.message/{quote(message.event_id, safe='')}",
            event,
            method="PUT",
        )
        if answer.status >= 300:
            return answer
    return answer
