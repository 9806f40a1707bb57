"""Any endpoint taking a notification as JSON (`json[s]://`), a form (`form[s]://`) or XML
(`xml[s]://`), in Apprise's formats so receivers built for them work unchanged: the fields
version, title, message and type; `?:field=name` renames a field (empty: drops it), `?+Header=v`
adds a header, `?-param=v` a query parameter, `?method=PUT` another method, and the URL's user
and password go as HTTP Basic authentication. Each request carries the event id as a header."""

import base64
import json
from urllib.parse import urlencode
from xml.sax.saxutils import escape

from django.conf import settings

from incidents.outbound.client import Answer, BlockingClient

from ..http_posts import json_headers
from .base import Message, Target

CONTENT_TYPES = {
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


def origin(target: Target) -> str:
    if not target.host:
        raise ValueError("the URL names no host")
    return target.origin(secure=target.scheme.endswith("s"))


def fields(target: Target, message: Message, *, xml: bool) -> dict[str, object]:
    names = (
        ("Version", "Subject", "MessageType", "Message") if xml else ("version", "title", "type", "message")
    )
    values: dict[str, object] = dict(zip(names, ("1.0", message.title, "info", message.text), strict=True))
    if not xml:
        values["attachments"] = []
    for key, value in target.query.items():
        if key.startswith(":"):
            if key[1:] in values:
                moved = values.pop(key[1:])
                if value:
                    values[value] = moved
            else:
                values[key[1:]] = value
    return values


def body(kind: str, values: dict[str, object]) -> bytes:
    if kind == "json":
        return json.dumps(values, ensure_ascii=False).encode()
    if kind == "form":
        return urlencode({key: value for key, value in values.items() if key != "attachments"}).encode()
    return XML.format(
        fields="".join(f"<{key}>{escape(str(value))}</{key}>" for key, value in values.items())
    ).encode()


def send(client: BlockingClient, target: Target, message: Message) -> Answer:
    kind = target.scheme.rstrip("s")
    sent_headers = json_headers(event_id=message.event_id, content_type=CONTENT_TYPES[kind])
    sent_headers.update({key[1:]: value for key, value in target.query.items() if key.startswith("+")})
    if target.user:
        credentials = base64.b64encode(f"{target.user}:{target.password}".encode()).decode()
        sent_headers["Authorization"] = f"Basic {credentials}"
    params = {key[1:]: value for key, value in target.query.items() if key.startswith("-")}
    url = origin(target) + target.path + (f"?{urlencode(params)}" if params else "")
    return client.request(
        target.query.get("method", "POST").upper(),
        url,
        body=body(kind, fields(target, message, xml=kind == "xml")),
        headers=sent_headers,
        timeout=settings.NOTIFY_WEBHOOK_TIMEOUT_SECONDS,
    )
