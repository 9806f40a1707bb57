"""What a reader sees of a metric's live figure: a fresh value, no data, a failed check, its status."""

import datetime as dt
import re

import pytest
import time_machine
from django.utils import timezone

from incidents.models import Component, ComponentStatus, Metric, Outcome, StatusMode
from incidents.services.components import save_component
from incidents.services.health import evaluate_metrics, group_samples
from incidents.services.metrics import NewSample, record_samples

pytestmark = pytest.mark.django_db


@pytest.fixture
def delay(admin):
    return email_delay(admin, StatusMode.AUTOMATIC)


def email_delay(admin, status_mode: StatusMode) -> Metric:
    """An email component with a delivery delay metric (degraded at 5 minutes, down at 1 hour)."""
    component = save_component(
        Component(slug="email-delivery", name={"en": "Email delivery"}, status_mode=status_mode),
        actor=admin,
    )
    return Metric.objects.create(
        component=component,
        slug="delay",
        name={"en": "Delivery delay"},
        unit="s",
        precision=1,
        window=1,
        expected_interval=60,
        degraded_threshold=300,
        partial_outage_threshold=1800,
        major_outage_threshold=3600,
    )


def measure(metric, value, *, ago: dt.timedelta = dt.timedelta(seconds=30), outcome=Outcome.OK):
    """Stores a sample and evaluates it, as a probe result does."""
    entries = [NewSample(metric, value, timezone.now() - ago, outcome)]
    record_samples(entries)
    evaluate_metrics(group_samples(entries))


def squeeze(html: str) -> str:
    """Text without tags, runs of ASCII white space as one space (no-break spaces kept), with the
    status shapes CSS draws from data-icon."""
    html = re.sub(r'<span class="icon" data-icon="([^"]*)"[^>]*></span>', r"\1", html)
    return re.sub(r"[ \t\n]+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def metric_text(client, path="/") -> str:
    """The text of the metric's line on the page, without markup or the chart's description."""
    html = client.get(path).content.decode()
    match = re.search(r'<div class="metric">(.*?)<svg', html, re.S) or re.search(
        r"<p[^>]*>Now:(.*?)</p>", html, re.S
    )
    assert match, html
    return squeeze(match.group(1))


def component_line(client) -> str:
    html = client.get("/").content.decode()
    match = re.search(r'<div class="component-head">(.*?)</div>', html, re.S)
    return squeeze(match.group(1))


def test_a_fresh_value_is_shown_with_its_age(client, delay):
    measure(delay, 1.8)

    text = metric_text(client)

    assert "1.8\u00a0sec" in text
    assert "seconds ago" in text
    assert "no data" not in text


@pytest.mark.parametrize("path", ["/", "/components/email-delivery/"])
def test_a_metric_silent_for_three_intervals_shows_no_data_not_its_old_value(client, delay, path):
    measure(delay, 1.8, ago=dt.timedelta(minutes=4))  # 3 × 60 s have passed

    text = metric_text(client, path)

    assert "no data" in text
    assert "∅" in text  # the icon goes with the text
    assert "1.8" not in text
    assert "last report 4 minutes ago" in text


def test_a_metric_that_never_reported_shows_no_data(client, delay):
    assert "no data" in metric_text(client)


def test_a_failed_last_sample_says_so_and_shows_the_metrics_status(client, delay):
    measure(delay, 1.8, ago=dt.timedelta(minutes=1))
    measure(delay, None, outcome=Outcome.TIMEOUT)

    text = metric_text(client)

    assert "last check failed" in text
    assert "1.8" not in text
    assert "✕ Major outage" in text


def test_a_metric_worse_than_operational_says_its_status_next_to_the_value(client, delay):
    # The clock stands still: on a busy machine the page is rendered more than a second later.
    with time_machine.travel(timezone.now(), tick=False):
        measure(delay, 360)  # 6 minutes, past the 5-minute degraded threshold
        text = metric_text(client)
    # The value, the threshold it is judged against and the verdict, in that order, once each.
    assert "6\u00a0min limit 5\u00a0min ▲ Degraded performance 30 seconds ago" in text  # 360 s, 300 s


def test_an_operational_component_with_a_late_latency_metric_says_by_how_much(client, delay, admin):
    delay.component.status_mode = StatusMode.MANUAL  # an editor keeps it "operational"
    save_component(delay.component, actor=admin)
    measure(delay, 23 * 60)
    delay.component.refresh_from_db()
    assert delay.component.status == ComponentStatus.OPERATIONAL

    line = component_line(client)

    assert "Operational" in line
    assert "up, but 23 minutes late (Delivery delay)" in line
    page = squeeze(client.get("/components/email-delivery/").content.decode())
    assert "up, but 23 minutes late (Delivery delay)" in page


def test_no_late_note_when_the_latency_is_within_its_threshold_or_the_component_is_not_operational(
    client, delay
):
    measure(delay, 12)
    assert "late" not in component_line(client)
    measure(delay, 23 * 60)  # automatic mode: the component itself turns degraded
    line = component_line(client)
    assert "Degraded performance" in line
    assert "late" not in line


@pytest.mark.parametrize(
    ("path", "shown", "exact"),
    [
        ("/", "23\u00a0min", "1,380.0\u00a0sec"),
        ("/nb/", "23\u00a0min", "1\u00a0380,0\u00a0sek"),
        ("/ru/", "23\u00a0мин", "1\u00a0380,0\u00a0с"),
    ],
)
def test_a_23_minute_delay_reads_in_minutes_with_its_seconds_in_the_title(client, delay, path, shown, exact):
    measure(delay, 23 * 60)

    page = client.get(path).content.decode()

    assert f'<strong class="value" title="{exact}">{shown}</strong>' in page
