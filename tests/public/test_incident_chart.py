"""The incident page charts its affected metrics over the incident's window, when there is data."""

import datetime as dt

import pytest
from django.test import Client

from incidents.importers.samples.service import import_samples
from incidents.models import Component, Metric
from incidents.services.incidents import declare_incident, resolve_incident

START = dt.datetime(2018, 7, 13, 11, 0, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def _no_page_cache(settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0


@pytest.fixture
def webhooks(db):
    component = Component.objects.create(slug="webhooks", name={"en": "Webhook delivery"}, position=1)
    Metric.objects.create(
        component=component, slug="delay", name={"en": "Delivery delay"}, unit="s", degraded_threshold=60
    )
    return component


def incident_at(component, admin, started_at, title):
    incident = declare_incident(
        title=title,
        language="en",
        body="Webhooks are delayed.",
        component_statuses={component: "degraded_performance"},
        actor=admin,
        started_at=started_at,
        backfilled=True,
    )
    resolve_incident(
        incident,
        body={"en": "Fixed."},
        language="en",
        actor=admin,
        display_at=started_at + dt.timedelta(hours=1),
    )
    return incident


@pytest.mark.django_db
def test_an_incident_in_an_imported_window_shows_the_metric_chart_with_its_peak(webhooks, admin):
    metric = webhooks.metrics.get()
    values = [(START - dt.timedelta(hours=1) + dt.timedelta(minutes=m), 5.0) for m in range(180)]
    values[83] = (values[83][0], 1380.0)
    import_samples(metric, values, actor=admin)
    incident = incident_at(webhooks, admin, START, "Delayed webhooks")
    english = Client().get(f"/incidents/{incident.slug}/").content.decode()
    assert '<h2 id="incident-metrics">Metrics during the incident</h2>' in english
    assert 'aria-label="Chart of Delivery delay during the incident"' in english
    assert (
        "Delivery delay during the incident: from 5\xa0sec to a peak of 23\xa0min, latest 5\xa0sec; limit 60\xa0sec"
        in english
    )
    assert 'class="threshold status-degraded_performance"' in english
    assert "Degraded performance 60\xa0sec" in english
    russian = Client().get(f"/ru/incidents/{incident.slug}/").content.decode()
    assert '<svg class="chart"' in russian
    assert "23\xa0мин" in russian  # the 1,380 s peak, in minutes
    assert "13 июл. 2018" in russian or "июл" in russian


@pytest.mark.django_db
def test_an_incident_without_data_in_its_window_shows_no_chart(webhooks, admin):
    import_samples(webhooks.metrics.get(), [(START, 5.0)], actor=admin)
    incident = incident_at(webhooks, admin, START + dt.timedelta(days=30), "Later")
    page = Client().get(f"/incidents/{incident.slug}/").content.decode()
    assert '<svg class="chart"' not in page
    assert "Metrics during the incident" not in page
