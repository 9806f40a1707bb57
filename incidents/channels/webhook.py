"""Outgoing webhooks in Statuspage's format, signed so receivers can verify them and drop replays.

Body: `{"meta": …, "page": {id, status_indicator, status_description}, "incident": {…}}` for an
incident update, or `{"meta": …, "page": …, "component_update": {id, component_id, old_status,
new_status, created_at}, "component": {…}}` for a component's status change, as Statuspage
sends them (receivers built for Statuspage work unchanged); we add `meta.event_id` and
`meta.generated_at`, which lenient clients ignore.

Headers: `X-Status-Event-Id` (the idempotency key: the same for every retry of one
notification), `X-Status-Timestamp` (Unix seconds) and `X-Status-Signature: v1=<hex>`, the
HMAC-SHA256 of `"<timestamp>." + body` under the subscriber's secret. A receiver recomputes it,
rejects timestamps older than a few minutes and remembers event ids it has seen.
"""

import datetime as dt
import hashlib
import hmac
import time
from collections.abc import Generator

from django.conf import settings
from django.utils import timezone

from incidents.channels.links import manage_token, subscription_url
from incidents.models import Component, ComponentStatusChange, Delivery, Incident, IncidentUpdate
from incidents.selectors.public import current_indicator
from incidents.translation import pick

from .base import Result, update_of
from .content import ContentCache, content_key, incident_url, status_change_key
from .http_posts import EVENT_ID_HEADER, Post, json_text, refusal, send_posts

SIGNATURE_HEADER = "X-Status-Signature"
TIMESTAMP_HEADER = "X-Status-Timestamp"


def iso(value: dt.datetime | None) -> str | None:
    if value is None:
        return None
    return value.astimezone(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def page_id() -> str:
    """A stable 12-character base36 id for this page, derived from its address."""
    digest = int.from_bytes(hashlib.sha256(settings.SITE_URL.encode()).digest()[:8], "big")
    return "".join("0123456789abcdefghijklmnopqrstuvwxyz"[digest // 36**place % 36] for place in range(12))


def component_json(component: Component, language: str) -> dict:
    return {
        "id": component.public_id,
        "name": pick(component.name, language=language).text or component.slug,
        "status": component.status,
        "created_at": iso(component.created_at),
        "updated_at": iso(component.updated_at),
        "position": component.position,
        "description": pick(component.description, language=language).text or None,
        "showcase": component.showcase,
        "start_date": component.start_date.isoformat() if component.start_date else None,
        "group_id": component.group.public_id if component.group else None,
        "page_id": page_id(),
        "group": False,
        "only_show_if_degraded": component.only_show_if_degraded,
    }


def _affected_name(component: Component, language: str) -> str:
    name = pick(component.name, language=language).text or component.slug
    if component.group:
        return f"{pick(component.group.name, language=language).text} - {name}"
    return name


def update_json(update: IncidentUpdate, incident: Incident, language: str) -> dict:
    changes = list(update.component_changes.select_related("component__group"))
    return {
        "id": update.public_id,
        "status": update.status,
        "body": pick(update.body, language=language, original=update.original_language).text,
        "incident_id": incident.public_id,
        "created_at": iso(update.created_at),
        "updated_at": iso(update.updated_at),
        "display_at": iso(update.display_at),
        "affected_components": [
            {
                "code": change.component.public_id,
                "name": _affected_name(change.component, language),
                "old_status": change.old_status,
                "new_status": change.new_status,
            }
            for change in changes
        ]
        or None,
        "deliver_notifications": update.deliver_notifications,
        "custom_tweet": None,
        "tweet_id": None,
    }


def incident_json(incident: Incident, language: str) -> dict:
    data = {
        "id": incident.public_id,
        "name": pick(incident.title, language=language, original=incident.original_language).text,
        "status": incident.status,
        "impact": "maintenance" if incident.is_maintenance else incident.impact,
        "created_at": iso(incident.created_at),
        "updated_at": iso(incident.updated_at),
        "started_at": iso(incident.started_at),
        "monitoring_at": iso(incident.monitoring_at),
        "resolved_at": iso(incident.resolved_at),
        "shortlink": incident_url(incident, language),
        "page_id": page_id(),
        "incident_updates": [
            update_json(update, incident, language) for update in incident.updates.timeline()
        ],
        "components": [
            component_json(c, language) for c in incident.components.select_related("group").all()
        ],
    }
    if incident.is_maintenance:
        data["scheduled_for"] = iso(incident.scheduled_for)
        data["scheduled_until"] = iso(incident.scheduled_until)
    return data


def page_json() -> dict:
    indicator = current_indicator()
    return {"id": page_id(), "status_indicator": indicator.value, "status_description": indicator.description}


def component_update_payload(change: ComponentStatusChange, language: str) -> dict:
    """Everything but `meta` for a status change, built once per (change, language).

    `component.status` is the change's new status, not the current one, so a retry an hour
    later still describes the event it is about."""
    component = change.component
    return {
        "page": page_json(),
        "component_update": {
            "id": change.public_id,
            "component_id": component.public_id,
            "old_status": change.old_status,
            "new_status": change.new_status,
            "created_at": iso(change.created_at),
        },
        "component": {**component_json(component, language), "status": change.new_status},
    }


_cache = ContentCache()


def _base_for(delivery: Delivery, language: str) -> dict:
    if delivery.is_component_update:
        change = delivery.status_change
        assert change is not None  # is_component_update says so
        return _cache.get(
            status_change_key(change, language), lambda: component_update_payload(change, language)
        )
    update = update_of(delivery)
    # Everything but the per-subscriber `meta`, built once per (update, language).
    return _cache.get(
        content_key(update, language, "webhook"),
        lambda: {"page": page_json(), "incident": incident_json(update.incident, language)},
    )


def payload_for(delivery: Delivery) -> dict:
    base = _base_for(delivery, delivery.subscriber.language)
    token = manage_token(delivery.subscriber)
    meta = {
        "unsubscribe": subscription_url("unsubscribe", delivery.subscriber, token),
        "documentation": settings.SITE_URL + "/subscribe/webhooks/",
        "event_id": delivery.idempotency_key,
        "generated_at": iso(timezone.now()),
    }
    return {"meta": meta, **base}


def sign(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return f"v1={mac.hexdigest()}"


def webhook_post(delivery: Delivery) -> Post | Result:
    subscriber = delivery.subscriber
    refused = refusal(subscriber.endpoint_url)
    if refused:
        return refused.result(delivery)
    body = json_text(payload_for(delivery)).encode()
    timestamp = int(time.time())
    headers = {
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": f"{settings.STATUS_PAGE_NAME} webhooks",
        EVENT_ID_HEADER: delivery.idempotency_key,
        TIMESTAMP_HEADER: str(timestamp),
        SIGNATURE_HEADER: sign(subscriber.webhook_secret, timestamp, body),
    }
    return Post(delivery, subscriber.endpoint_url, body, headers)


class WebhookChannel:
    batch_size_setting = "NOTIFY_WEBHOOK_BATCH_SIZE"

    def send(self, deliveries: list[Delivery]) -> Generator[list[Result]]:
        """Posts through the guarded client (redirects are not followed), a group at a time."""
        posts = (webhook_post(delivery) for delivery in deliveries)
        return send_posts(posts)
