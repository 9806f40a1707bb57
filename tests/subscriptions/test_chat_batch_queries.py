"""A batch of chat messages about one update costs the same database queries for 3 messages as
for 25: the message is rendered once per language, and the only query that grows with the batch
is the one UPDATE per group posted together (which bounds what a crash sends twice)."""

import math

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from incidents.channels import outbox
from incidents.channels.http_posts import CONCURRENT_POSTS
from incidents.models import Channel, Delivery, DeliveryState
from incidents.services.metrics import record_sample

from .chat_sinks import *  # noqa: F403 - the receivers are fixtures

pytestmark = pytest.mark.django_db


def queries_to_deliver(channel: str) -> int:
    claimed = outbox.claim(channel=channel, size=100)
    with CaptureQueriesContext(connection) as queries:
        report = outbox.deliver_batch(claimed)
    assert report.sent == len(claimed.ids)
    return len(queries.captured_queries)


@pytest.mark.parametrize("channel", [Channel.SLACK, Channel.TEAMS])
def test_a_chat_batch_costs_the_same_queries_for_three_messages_as_for_twenty_five(
    channel, slack_sink, teams_sink, make_subscriber, declare, latency_metric
):
    sink = slack_sink if channel == Channel.SLACK else teams_sink
    record_sample(latency_metric, value=72.5)  # the messages show the live figure

    separator = "&" if "?" in sink.url else "?"

    def add_subscribers(first: int, stop: int) -> None:
        for n in range(first, stop):
            target = f"{sink.url}{separator}n={n}"
            make_subscriber("", channel=channel, target=target, language=["en", "ru"][n % 2])

    add_subscribers(0, 3)
    declare("Delayed webhook deliveries")
    small = queries_to_deliver(channel)
    add_subscribers(3, 25)
    declare("Slow API responses")
    large = queries_to_deliver(channel)

    assert Delivery.objects.filter(state=DeliveryState.SENT).count() == 3 + 25
    assert len(sink.requests) == 3 + 25
    marks = math.ceil(25 / CONCURRENT_POSTS) - math.ceil(3 / CONCURRENT_POSTS)
    assert large == small + marks
