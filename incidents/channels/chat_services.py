"""Chat services a subscriber names by an Apprise-style URL
(`scheme://user:password@host:port/path?key=value`), sent through the guarded client as webhooks
are: one message per update, one delivery at a time, the HTTP status classifying each outcome.

Each service is a generator of the requests its URL and a message make, each built once the
answer to the one before is in (Matrix joins a room before it posts there); the first refused
request ends the exchange. Services with an API of their own (`API`) get the message there,
whatever host the URL names. The URL is a credential, so it is read back masked.
"""

import base64
import json
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import NamedTuple
from urllib.parse import quote, unquote, urlencode, urlsplit
from xml.sax.saxutils import escape

import aiohttp
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext as _

from incidents.models import Delivery
from incidents.outbound.client import Answer, BlockingClient
from incidents.outbound.guard import check_host_addresses, check_host_name, check_sendable
from incidents.rendering import render_markdown
from incidents.security.masking import is_masked, mask_secret

from . import receiver_breakers
from .base import Sent
from .chat_content import ChatContent, chat_content, clip, with_manage_link
from .emails import MANAGE_MARKER
from .http_posts import guarded_client, json_headers, json_text, receiver_failed, sent_of

API = {"discord": "https://discord.com", "tgram": "https://api.telegram.org"}


@dataclass(frozen=True)
class Message:
    title: str
    text: str  # Markdown
    event_id: str  # the same for every retry of one notification


@dataclass(frozen=True)
class Target:
    scheme: str
    netloc: str  # as written: Telegram's bot token looks like host:port to a URL parser
    user: str
    password: str
    host: str
    port: str
    path: str  # as written, from its "/" on
    segments: list[str]
    query: dict[str, str] = field(default_factory=dict)


def split_target(target: str) -> Target:
    scheme, separator, rest = target.strip().partition("://")
    if not separator:
        raise ValueError("no scheme")
    rest, _, query = rest.partition("?")
    netloc, _, path = rest.partition("/")
    userinfo, _, hostport = netloc.rpartition("@")
    user, _, password = userinfo.partition(":")
    host, port = hostport, ""
    if hostport.startswith("["):
        host, _, port = hostport[1:].partition("]")
        port = port.removeprefix(":")
    elif hostport.count(":") == 1:
        host, port = hostport.split(":")
    pairs = (pair.partition("=") for pair in query.split("&") if pair)
    return Target(
        scheme=scheme.lower(),
        netloc=netloc,
        user=unquote(user),
        password=unquote(password),
        host=host.lower(),
        port=port,
        path="/" + path if path or rest.endswith("/") else "",
        segments=[unquote(segment) for segment in path.split("/") if segment],
        query={unquote(key): unquote(value) for key, _, value in pairs},
    )


class Request(NamedTuple):
    method: str
    url: str
    body: bytes
    headers: dict[str, str]
    verify: bool = True


Requests = Generator[Request, Answer]


def _json(
    url: str, payload: dict, message: Message, *, method: str = "POST", token: str = "", verify: bool = True
) -> Request:
    headers = json_headers(event_id=message.event_id) | (
        {"Authorization": f"Bearer {token}"} if token else {}
    )
    return Request(method, url, json_text(payload).encode(), headers, verify)


def _titled(message: Message, title: str) -> str:
    return title.format(message.title) + message.text if message.title else message.text


def _username(target: Target) -> dict:
    return {"username": target.user} if target.user else {}


def discord(target: Target, origin: str, message: Message) -> Requests:
    """`discord://[name@]webhook_id/webhook_token`: no mention acted on, at most 2,000 characters."""
    webhook_id, token = target.netloc.rpartition("@")[2], target.segments[0]
    content = clip(_titled(message, "**{}**\n"), 2000)
    payload = {"content": content, "allowed_mentions": {"parse": []}, **_username(target)}
    yield _json(f"{origin}/api/webhooks/{quote(webhook_id)}/{quote(token)}", payload, message)


def mattermost(target: Target, origin: str, message: Message) -> Requests:
    """`mmost[s]://[name@]host[:port][/path]/webhook_token`, the server's incoming webhook."""
    *path, token = target.segments
    url = origin + "".join(f"/{quote(part)}" for part in path) + f"/hooks/{quote(token)}"
    yield _json(url, {"text": _titled(message, "#### {}\n"), **_username(target)}, message)


def telegram(target: Target, origin: str, message: Message) -> Requests:
    """`tgram://bot_token/chat_id[/chat_id…]`: plain text (Telegram refuses Markdown it cannot
    parse), at most 4,096 characters."""
    text = clip(_titled(message, "{}\n\n"), 4096)
    for chat in target.segments:
        payload = {"chat_id": chat, "text": text, "disable_web_page_preview": True}
        yield _json(f"{origin}/bot{quote(_bot_token(target))}/sendMessage", payload, message)


def _bot_token(target: Target) -> str:
    return target.netloc.removeprefix("bot")


def _rooms(target: Target) -> list[str]:
    """The rooms as the homeserver knows them: an alias without its server is on `host`."""
    named = [room for room in target.segments if room.lstrip("#!")]
    return [
        room if ":" in room or room.startswith("!") else f"#{room.lstrip('#')}:{target.host}"
        for room in named
    ]


def _answered(answer: Answer, key: str) -> str:
    value = json.loads(answer.body or b"{}").get(key)
    if not isinstance(value, str):
        raise ValueError(f"the homeserver's answer has no {key}")
    return value


def matrix(target: Target, origin: str, message: Message) -> Requests:
    """`matrix[s]://access_token@host[:port]/#room` (or `user:password@host`, which logs in first),
    through the client-server API of the homeserver the URL names: no `.well-known` discovery,
    which would name another host to send the token to. The event's transaction id is the event
    id, so the homeserver drops a retry it already has; `?verify=no` is honoured as Apprise did."""
    api, verify = f"{origin}/_matrix/client/v3", target.query.get("verify", "yes") not in ("no", "false")
    token = target.password or target.user
    if target.user and target.password:
        login = {"type": "m.login.password", "identifier": {"type": "m.id.user", "user": target.user}}
        answer = yield _json(f"{api}/login", {**login, "password": target.password}, message, verify=verify)
        token = _answered(answer, "access_token")
    text = _titled(message, "**{}**\n\n")
    event = {
        "msgtype": "m.text",
        "body": text,
        "format": "org.matrix.custom.html",
        "formatted_body": str(render_markdown(text)),
    }
    for room in _rooms(target):
        answer = yield _json(f"{api}/join/{quote(room, safe='')}", {}, message, token=token, verify=verify)
        room_id, event_id = quote(_answered(answer, "room_id"), safe=""), quote(message.event_id, safe="")
        url = f"{api}/rooms/{room_id}/send/m.room.message/{event_id}"
        yield _json(url, event, message, method="PUT", token=token, verify=verify)


GENERIC_TYPES = {
    "json": "application/json; charset=utf-8",
    "form": "application/x-www-form-urlencoded",
    "xml": "application/xml; charset=utf-8",
}
XML = (
    '<?xml version="1.0" encoding="utf-8"?><soapenv:Envelope'
    ' xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"'
    ' xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
    "<soapenv:Body><Notification>{fields}</Notification></soapenv:Body></soapenv:Envelope>"
)


def _generic_fields(target: Target, message: Message, *, xml: bool) -> dict[str, object]:
    names = (
        ("Version", "Subject", "MessageType", "Message") if xml else ("version", "title", "type", "message")
    )
    values: dict[str, object] = dict(zip(names, ("1.0", message.title, "info", message.text), strict=True))
    if not xml:
        values["attachments"] = []
    for key, value in target.query.items():
        if key.startswith(":") and key[1:] in values:
            moved = values.pop(key[1:])
            if value:
                values[value] = moved
        elif key.startswith(":"):
            values[key[1:]] = value
    return values


def generic(target: Target, origin: str, message: Message) -> Requests:
    """Any endpoint taking JSON (`json[s]://`), a form (`form[s]://`) or XML (`xml[s]://`) in
    Apprise's formats, so receivers built for them work unchanged: the fields version, title,
    message and type; `?:field=name` renames a field (empty: drops it), `?+Header=v` adds a
    header, `?-param=v` a query parameter, `?method=PUT` another method, and the URL's user and
    password go as HTTP Basic authentication."""
    kind = target.scheme.rstrip("s")
    values = _generic_fields(target, message, xml=kind == "xml")
    if kind == "json":
        body = json.dumps(values, ensure_ascii=False)
    elif kind == "form":
        body = urlencode({key: value for key, value in values.items() if key != "attachments"})
    else:
        body = XML.format(
            fields="".join(f"<{key}>{escape(str(value))}</{key}>" for key, value in values.items())
        )
    headers = json_headers(event_id=message.event_id, content_type=GENERIC_TYPES[kind])
    headers.update({key[1:]: value for key, value in target.query.items() if key.startswith("+")})
    if target.user:
        credentials = base64.b64encode(f"{target.user}:{target.password}".encode()).decode()
        headers["Authorization"] = f"Basic {credentials}"
    params = {key[1:]: value for key, value in target.query.items() if key.startswith("-")}
    url = origin + target.path + (f"?{urlencode(params)}" if params else "")
    yield Request(target.query.get("method", "POST").upper(), url, body.encode(), headers)


SCHEMES = "discord tgram matrix matrixs mmost mmosts json jsons form forms xml xmls".split()
# By scheme (its secure variant ends in "s"): the requests a message makes, and whether a URL
# names all the service needs.
SERVICES: dict[str, tuple[Callable[[Target, str, Message], Requests], Callable[[Target], object]]] = {
    "discord": (discord, lambda target: target.host and target.segments),
    "tgram": (telegram, lambda target: ":" in _bot_token(target) and target.segments),
    "matrix": (matrix, lambda target: target.host and (target.user or target.password) and _rooms(target)),
    "mmost": (mattermost, lambda target: target.host and target.segments),
    **dict.fromkeys(("json", "form", "xml"), (generic, lambda target: target.host)),
}


def parsed(value: str) -> tuple[Callable[[Target, str, Message], Requests], Target, str]:
    target = split_target(value)
    if target.scheme not in SCHEMES:
        raise ValueError(f"{target.scheme}:// names no service we can post to")
    requests, complete = SERVICES[target.scheme.removesuffix("s")]
    if not complete(target):
        raise ValueError(f"the {target.scheme}:// URL lacks what the service needs")
    if target.scheme in API:
        return requests, target, API[target.scheme]
    if target.port and not target.port.isdigit():
        raise ValueError("the port is not a number")
    host = f"[{target.host}]" if ":" in target.host else target.host
    port = f":{target.port}" if target.port else ""
    return requests, target, f"{'https' if target.scheme.endswith('s') else 'http'}://{host}{port}"


def check_target(value: str) -> str:
    value = value.strip()
    if is_masked(value) or "••••" in value:
        raise ValidationError(_("Send the full Apprise URL: the masked one read back cannot be used."))
    if "://" not in value or value.partition("://")[0].lower() not in SCHEMES:
        raise ValidationError(
            _("Use an Apprise URL of one of these services: %(schemes)s.") % {"schemes": ", ".join(SCHEMES)}
        )
    try:
        _requests, target, origin = parsed(value)
        check_sendable(origin)
    except (ValueError, ValidationError):
        raise ValidationError(
            _("Apprise cannot use this URL; check it against Apprise's documentation.")
        ) from None
    if target.scheme not in API:
        check_host_addresses(check_host_name(target.host))
    return value


def shown_target(value: str) -> str:
    return f"{value.partition('://')[0].lower()}://{mask_secret(value)}"


def reached_host(value: str) -> str:
    target = split_target(value)
    return urlsplit(API[target.scheme]).hostname or "" if target.scheme in API else target.host


def _exchange(client: BlockingClient, requests: Requests) -> Answer:
    answer = Answer(200)
    try:
        request = next(requests)
        while True:
            answer = client.request(
                request.method,
                request.url,
                body=request.body,
                headers=request.headers,
                timeout=settings.NOTIFY_WEBHOOK_TIMEOUT_SECONDS,
                verify=request.verify,
            )
            if answer.status >= 300:
                return answer
            request = requests.send(answer)
    except StopIteration:
        return answer


def send_message(value: str, message: Message) -> Sent:
    """Sends `message` to the service `value` names while its circuit is closed."""
    try:
        requests, target, origin = parsed(value)
        check_sendable(origin)
    except (ValueError, ValidationError) as error:
        return Sent(f"Address refused: {' '.join(getattr(error, 'messages', [str(error)]))}", permanent=True)
    circuit = receiver_breakers.origin_of(origin)
    until = receiver_breakers.refused_until(circuit)
    if until is not None:
        return Sent(receiver_breakers.held_error(circuit), retry_at=until)
    try:
        with guarded_client() as client:
            outcome: Answer | BaseException = _exchange(client, requests(target, origin, message))
    except (aiohttp.ClientError, OSError) as error:  # TimeoutError is an OSError
        outcome = error
    except ValueError as error:
        return Sent(f"The service's answer cannot be read: {error}", permanent=True)
    receiver_breakers.record(circuit, failed=receiver_failed(outcome))
    return sent_of(outcome)


def notice(target: str, *, title: str, text: str, link: str, event_id: str) -> str:
    return send_message(
        target, Message(title=title, text=f"{text}\n\n{link}".strip(), event_id=event_id)
    ).error


def send_delivery(delivery: Delivery) -> Sent:
    title, text = chat_content(delivery, kind="apprise", build=message)
    return send_message(
        delivery.subscriber.target,
        Message(title=title, text=with_manage_link(text, delivery), event_id=delivery.idempotency_key),
    )


def message(content: ChatContent) -> tuple[str, str]:
    update = content.content
    with translation.override(update.language):
        lines = [f"**{_('Status')}:** {update.status_label} · **{_('Impact')}:** {content.impact_label}", ""]
        if content.body.strip():
            lines += [content.body.strip(), ""]
        for component in content.components:
            figure = f" · {component.figure}" if component.figure else ""
            lines.append(f"- {component.name}: {component.status_label}{figure}")
        if content.components:
            lines.append("")
        lines.append(f"[{_('View incident')}]({content.url}) · {update.page_name} · {update.shown_at}")
        lines.append(f"[{_('Manage subscription')}]({MANAGE_MARKER})")
        return content.heading, "\n".join(lines)
