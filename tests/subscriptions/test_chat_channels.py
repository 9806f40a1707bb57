"""Chat and SMS subscribers, delivered from the outbox to local receivers that check payloads as
Slack, Teams, an Apprise `json://` endpoint and an SMS gateway would."""

import dataclasses
import datetime as dt
import json
import re
from urllib.parse import urlsplit

import pytest
import time_machine
from django.utils import timezone

from incidents.channels import outbox, slack, sms
from incidents.channels.chat_content import ChatComponent, render_chat_content
from incidents.models import Channel, Delivery, DeliveryState
from incidents.services.metrics import record_sample

from .chat_sinks import *  # noqa: F403 - the receivers are fixtures
from .chat_sinks import slack_problems

pytestmark = pytest.mark.django_db


@pytest.fixture
def make_chat_subscriber(make_subscriber):
    def make(channel, target, **fields):
        return make_subscriber("", channel=channel, target=target, **fields)

    return make


def opens_manage_page_of(client, url: str, subscriber) -> bool:
    """Whether the link opens this subscriber's own page, where they can also unsubscribe."""
    page = client.get(urlsplit(url).path)
    return page.status_code == 200 and page.context["subscriber"] == subscriber


def texts_of(blocks: list[dict]) -> str:
    parts = []
    for block in blocks:
        if "text" in block:
            parts.append(block["text"]["text"])
        parts += [field["text"] for field in block.get("fields", [])]
        parts += [
            element.get("text", "") for element in block.get("elements", []) if isinstance(element, dict)
        ]
    return "\n".join(str(part) for part in parts)


def test_slack_gets_a_block_kit_message_with_status_impact_components_and_links(
    client, slack_sink, make_chat_subscriber, declare, latency_metric
):
    record_sample(latency_metric, value=72.5)
    subscriber = make_chat_subscriber(Channel.SLACK, slack_sink.url)
    incident = declare("Delayed webhook deliveries", body="Webhooks are **delayed** by minutes.")

    outbox.deliver_due(seconds=30)

    assert slack_sink.refused == []
    [payload] = slack_sink.payloads()
    assert "Delayed webhook deliveries" in payload["text"]
    header, *rest = payload["blocks"]
    assert header == {"type": "header", "text": {"type": "plain_text", "text": "Delayed webhook deliveries"}}
    shown = texts_of(rest)
    assert "*Status*\nInvestigating" in shown
    assert "*Impact*\nMinor" in shown
    assert "Webhooks are *delayed* by minutes." in shown
    assert "*Webhook delivery*: Degraded performance · Webhook delivery delay: 72.5\u00a0s" in shown
    incident_button, manage_button = next(b for b in rest if b["type"] == "actions")["elements"]
    assert incident_button["url"].endswith(f"/incidents/{incident.slug}/")
    assert manage_button["text"]["text"] == "Manage subscription"
    assert opens_manage_page_of(client, manage_button["url"], subscriber)
    assert Delivery.objects.get().state == DeliveryState.SENT


def test_slack_message_stays_within_slacks_limits_for_long_texts_and_many_components(
    slack_sink, make_chat_subscriber, declare, make_component
):
    names = [f"Component {n:03} " + "x" * 120 for n in range(60)]
    components = {make_component(f"c{n}", name={"en": name}): "major_outage" for n, name in enumerate(names)}
    make_chat_subscriber(Channel.SLACK, slack_sink.url)
    declare("T" * 400, body="Long. " * 2000, component_statuses=components)

    outbox.deliver_due(seconds=30)

    assert slack_sink.refused == []
    [payload] = slack_sink.payloads()
    assert len(payload["blocks"]) <= 50
    assert payload["blocks"][0]["text"]["text"].endswith("…")
    shown = texts_of(payload["blocks"])
    assert all(f"*{name}*: Major outage" in shown for name in names)


def test_slack_message_is_in_the_subscribers_language(slack_sink, make_chat_subscriber, declare):
    make_chat_subscriber(Channel.SLACK, slack_sink.url, language="ru")
    declare("Задержка вебхуков", body="Медленно.", language="ru")

    outbox.deliver_due(seconds=30)

    [payload] = slack_sink.payloads()
    assert payload["blocks"][0]["text"]["text"] == "Задержка вебхуков"
    assert "Доставка вебхуков" in texts_of(payload["blocks"])
    incident_button, manage_button = payload["blocks"][-1]["elements"]
    assert "/ru/incidents/" in incident_button["url"]
    assert "/ru/subscribe/manage/" in manage_button["url"]
    assert manage_button["text"]["text"] == "Управление подпиской"


def test_teams_gets_an_adaptive_card(client, teams_sink, make_chat_subscriber, declare):
    subscriber = make_chat_subscriber(Channel.TEAMS, teams_sink.url)
    declare("Delayed webhook deliveries", body="Webhooks are delayed.")

    outbox.deliver_due(seconds=30)

    assert teams_sink.refused == []
    [payload] = teams_sink.payloads()
    card = payload["attachments"][0]["content"]
    assert card["body"][0]["text"] == "Delayed webhook deliveries"
    assert {"title": "Status", "value": "Investigating"} in card["body"][1]["facts"]
    assert {"title": "Webhook delivery", "value": "Degraded performance"} in card["body"][4]["facts"]
    view, manage = card["actions"]
    assert view["type"] == manage["type"] == "Action.OpenUrl"
    assert manage["title"] == "Manage subscription"
    assert opens_manage_page_of(client, manage["url"], subscriber)
    assert Delivery.objects.get().state == DeliveryState.SENT


def test_an_apprise_json_target_gets_the_message_with_its_event_id(
    client, json_sink, make_chat_subscriber, declare
):
    subscriber = make_chat_subscriber(Channel.APPRISE, json_sink.url)
    declare("Delayed webhook deliveries", body="Webhooks are delayed.")

    outbox.deliver_due(seconds=30)

    [request] = json_sink.requests
    body = json.loads(request["body"])
    assert body["title"] == "Delayed webhook deliveries: Investigating"
    assert "Webhooks are delayed." in body["message"]
    assert "Webhook delivery: Degraded performance" in body["message"]
    [manage_url] = re.findall(r"\[Manage subscription\]\((\S+)\)", body["message"])
    assert opens_manage_page_of(client, manage_url, subscriber)
    delivery = Delivery.objects.get()
    assert request["headers"]["X-Status-Event-Id"] == delivery.idempotency_key
    assert delivery.state == DeliveryState.SENT


def test_an_sms_goes_to_the_number_through_the_configured_gateway(sms_gateway, make_chat_subscriber, declare):
    make_chat_subscriber(Channel.SMS, "+4712345678")
    incident = declare("Delayed webhook deliveries")

    outbox.deliver_due(seconds=30)

    [request] = sms_gateway.requests
    assert request["path"] == "/sms/+4712345678"
    text = json.loads(request["body"])["message"]
    assert text.startswith("Acme Status: Delayed webhook deliveries - Investigating http")
    assert text.endswith(f"/incidents/{incident.slug}/")
    assert sms.segments(text) == 1


def test_a_cyrillic_sms_is_shortened_to_fit_its_segments_and_keeps_the_link(
    make_chat_subscriber, declare, settings
):
    settings.SMS_MAX_SEGMENTS = 2
    update = declare("Очень длинный заголовок " * 10, language="ru").updates.get()

    text = sms.message(render_chat_content(update, "ru"))

    assert sms.segments(text) <= 2
    assert "…" in text
    assert text.endswith(f"/ru/incidents/{update.incident.slug}/")


@pytest.mark.parametrize("channel", [Channel.SLACK, Channel.APPRISE])
def test_a_receiver_answering_500_then_200_gets_exactly_one_message(
    channel, slack_sink, json_sink, make_chat_subscriber, declare
):
    sink = slack_sink if channel == Channel.SLACK else json_sink
    make_chat_subscriber(channel, sink.url)
    declare()
    sink.answers = [500]

    outbox.deliver_due(seconds=30)
    delivery = Delivery.objects.get()
    assert (delivery.state, delivery.attempts) == (DeliveryState.PENDING, 1)
    with time_machine.travel(timezone.now() + dt.timedelta(minutes=5), tick=True):
        outbox.deliver_due(seconds=30)
        outbox.deliver_due(seconds=30)

    assert [r for r in sink.requests if r["headers"].get("X-Status-Event-Id") == delivery.idempotency_key]
    assert len(sink.requests) == 2  # the refused one and the accepted one
    delivery.refresh_from_db()
    assert delivery.state == DeliveryState.SENT


def test_a_slack_webhook_answering_404_is_not_retried(slack_sink, make_chat_subscriber, declare):
    make_chat_subscriber(Channel.SLACK, slack_sink.url)
    declare()
    slack_sink.answers = [404]

    outbox.deliver_due(seconds=30)

    delivery = Delivery.objects.get()
    assert delivery.state == DeliveryState.FAILED
    assert "HTTP 404" in delivery.last_error


@pytest.mark.parametrize("target", ["http://127.0.0.1:9/hook", "json://127.0.0.1:9/x"])
def test_the_address_guard_keeps_chat_messages_off_loopback(target, settings, make_chat_subscriber, declare):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False
    channel = Channel.SLACK if target.startswith("http") else Channel.APPRISE
    make_chat_subscriber(channel, target)
    declare()

    outbox.deliver_due(seconds=30)

    delivery = Delivery.objects.get()
    assert delivery.state == DeliveryState.FAILED
    assert delivery.last_error.startswith("Address refused")


def test_chat_subscribers_hear_nothing_of_component_status_changes(slack_sink, make_chat_subscriber, declare):
    make_chat_subscriber(Channel.SLACK, slack_sink.url)
    declare()

    assert (
        Delivery.objects.filter(status_change__isnull=False, subscriber__channel=Channel.SLACK).count() == 0
    )
    assert Delivery.objects.filter(update__isnull=False).count() == 1


def test_a_slack_message_with_more_components_than_blocks_counts_the_rest(declare):
    content = render_chat_content(declare().updates.get(), "en")
    many = tuple(
        ChatComponent(
            name=f"Component {n} " + "x" * 200, status="major_outage", status_label="Major outage", figure=""
        )
        for n in range(1000)
    )

    payload = slack.message(dataclasses.replace(content, components=many))

    assert slack_problems(payload) == []
    assert len(payload["blocks"]) == 50
    shown = texts_of(payload["blocks"])
    hidden = 1000 - shown.count("*: Major outage")
    assert hidden > 0
    assert f"…and {hidden} more" in shown
