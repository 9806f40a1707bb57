"""Deliveries as /metrics counts them: per channel and outcome."""

import pytest
from prometheus_client.parser import text_string_to_metric_families

from incidents.channels import outbox

pytestmark = pytest.mark.django_db


def scraped(client, name: str, **labels) -> float:
    for family in text_string_to_metric_families(client.get("/metrics").content.decode()):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return sample.value
    return 0.0


def test_sent_and_refused_mails_are_counted_by_outcome(client, smtp_sink, make_subscriber, declare):
    make_subscriber("first@example.com")
    make_subscriber("second@example.com")
    sent_before = scraped(client, "statuspage_deliveries_total", channel="email", outcome="sent")
    failed_before = scraped(client, "statuspage_deliveries_total", channel="email", outcome="failed")
    smtp_sink.refuse_next, smtp_sink.refusal = 1, "550 5.1.1 No such user"
    declare()

    outbox.deliver_due(seconds=30)

    assert len(smtp_sink.messages) == 1
    assert scraped(client, "statuspage_deliveries_total", channel="email", outcome="sent") == sent_before + 1
    assert (
        scraped(client, "statuspage_deliveries_total", channel="email", outcome="failed") == failed_before + 1
    )
