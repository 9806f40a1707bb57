"""The metric charts of the component and incident pages carry what they say of each point, in
the page's language and zone, for the readout shown on hover and keyboard focus."""

import datetime as dt
import json
import re

import pytest
from django.core.cache import cache
from django.test import Client

from incidents.importers.samples.service import import_samples
from incidents.lifecycle.commands import EnterRecord, ResolveIncident
from incidents.lifecycle.opening import enter_record
from incidents.lifecycle.updates import resolve_incident
from incidents.models import Component, Incident, Metric

pytestmark = pytest.mark.django_db

RECORDED = dt.datetime(2018, 7, 13, 11, 0, tzinfo=dt.UTC)


def chart_readouts(page: str, ident: str) -> list[tuple[float, str]]:
    """(place along the chart's 640 units, text) of each point of the chart `ident` as served."""
    figure = re.search(rf'<figure class="line-chart" id="{ident}">.*?</figure>', page, re.S).group(0)
    svg = re.search(r'<svg class="chart"[^>]*>', figure).group(0)

    def attribute(name: str) -> list:
        return json.loads(re.search(rf'{name}="([^"]*)"', svg).group(1).replace("&quot;", '"'))

    return list(zip(attribute("data-readout-x"), attribute("data-readouts"), strict=True))


def delay_chart(site, span: str) -> str:
    """The id of the webhook delay's chart over `span` (ids carry the metric's primary key)."""
    return f"chart-{site['webhooks'].metrics.get().pk}-{span}"


def test_a_components_charts_say_each_hour_and_day_in_the_pages_zone(client, site):
    page = client.get("/components/webhook-delivery/").content.decode()

    # Hours in the page's zone (Europe/Oslo, UTC+1): samples every 10 minutes over the last
    # 3 hours before 12:00 UTC, so the hours starting 09:00, 10:00 and 11:00 UTC.
    assert [text for _x, text in chart_readouts(page, delay_chart(site, "24h"))] == [
        "Mar 10, 10:00: 2.7\u00a0sec",
        "Mar 10, 11:00: 2.1\u00a0sec",
        "Mar 10, 12:00: 1.6\u00a0sec",
    ]
    # Each at its hour's place along the last 24 hours: 21/24, 22/24 and 23/24 of the width.
    assert [round(x) for x, _text in chart_readouts(page, delay_chart(site, "24h"))] == [560, 587, 613]
    # The week's points are hours too; the 90 days' are days.
    assert chart_readouts(page, delay_chart(site, "7d"))[-1][1] == "Mar 10, 12:00: 1.6\u00a0sec"
    assert [text for _x, text in chart_readouts(page, delay_chart(site, "90d"))] == [
        "Mar 10, 2026: 2.7\u00a0sec"
    ]


def test_the_same_hours_read_in_the_zone_the_page_is_set_to_now(client, site, settings):
    client.get("/components/webhook-delivery/")  # the hours said once in Europe/Oslo
    settings.STATUS_TIME_ZONE = "UTC"
    cache.clear()

    page = client.get("/components/webhook-delivery/").content.decode()

    assert chart_readouts(page, delay_chart(site, "24h"))[0][1] == "Mar 10, 09:00: 2.7\u00a0sec"


def test_a_components_charts_say_their_points_in_the_pages_language(client, site):
    page = client.get("/ru/components/webhook-delivery/").content.decode()

    assert chart_readouts(page, delay_chart(site, "24h"))[-1][1] == "10 мар., 12:00: 1,6\u00a0с"
    assert chart_readouts(page, delay_chart(site, "90d"))[-1][1] == "10 мар. 2026\u202fг.: 2,7\u00a0с"


def record_delayed_webhooks(admin) -> tuple[Incident, Metric]:
    """A 2018 incident in Moscow time (UTC+3) whose delay peaked at 23 minutes, and its metric."""
    component = Component.objects.create(slug="webhooks", name={"en": "Webhook delivery"}, position=1)
    metric = Metric.objects.create(
        component=component,
        slug="delay",
        name={"en": "Delivery delay", "es": "Retraso de entrega"},
        unit="s",
        degraded_threshold=60,
    )
    values = [(RECORDED - dt.timedelta(hours=1) + dt.timedelta(minutes=m), 5.0) for m in range(180)]
    values[83] = (values[83][0], 1380.0)
    import_samples(metric, values, actor=admin)
    incident = enter_record(
        EnterRecord(
            title="Delayed webhooks",
            language="en",
            body="Webhooks are delayed.",
            component_statuses={component: "degraded_performance"},
            started_at=RECORDED,
            display_time_zone="Europe/Moscow",
        ),
        actor=admin,
    )
    resolve_incident(
        incident,
        ResolveIncident(body={"en": "Fixed."}, language="en", display_at=RECORDED + dt.timedelta(hours=1)),
        actor=admin,
    )
    return incident, metric


@pytest.fixture
def delayed_webhooks(admin):
    return record_delayed_webhooks(admin)


def test_an_incidents_chart_says_each_minute_in_the_incidents_zone(delayed_webhooks):
    incident, metric = delayed_webhooks
    page = Client().get(f"/incidents/{incident.slug}/").content.decode()

    readouts = chart_readouts(page, f"chart-{metric.pk}")
    texts = [text for _x, text in readouts]
    # The window runs from 15 minutes before the start to 15 after the end, minute by minute.
    assert texts[0] == "Jul 13, 13:45: 5\u00a0sec"
    assert "Jul 13, 14:23: 23\u00a0min" in texts  # the 1,380 s peak at 11:23 UTC, in minutes
    assert texts[-1] == "Jul 13, 15:14: 5\u00a0sec"
    assert len(texts) == 90
    places = [x for x, _text in readouts]
    assert places == sorted(places) and 0 <= places[0] < 8 and 632 < places[-1] <= 640


def test_an_incidents_chart_says_its_points_in_the_pages_language(delayed_webhooks):
    incident, metric = delayed_webhooks
    page = Client().get(f"/es/incidents/{incident.slug}/").content.decode()

    texts = [text for _x, text in chart_readouts(page, f"chart-{metric.pk}")]
    assert "13 jul, 14:23: 23\u00a0min" in texts
