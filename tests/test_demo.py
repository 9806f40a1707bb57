"""The demo page is believable and loading it is idempotent."""

import datetime as dt

import pytest
import time_machine
from django.core.cache import cache
from django.core.management import call_command
from django.utils import timezone

from incidents.intake.receiving import ReceivedAlert, receive_alerts
from incidents.lifecycle.commands import ResolveIncident
from incidents.lifecycle.updates import resolve_incident
from incidents.models import (
    ActionItem,
    AlertRule,
    AlertSource,
    AlertState,
    AuditEvent,
    Component,
    ComponentGroup,
    Incident,
    Metric,
    MetricHealth,
    Postmortem,
    Probe,
    ProbeKind,
    RegionHealth,
    Rollup,
    Sample,
    StatusPeriod,
)
from incidents.models.postmortems import status_page_today
from incidents.services.components import set_component_status
from incidents.tasks.demo import feed

MODELS = (
    AlertRule,
    ComponentGroup,
    Component,
    Metric,
    Probe,
    MetricHealth,
    Incident,
    Postmortem,
    ActionItem,
    Rollup,
    Sample,
    StatusPeriod,
    AuditEvent,
)


# Loaded once for the module on each worker that runs its tests: the slowest fixture of the suite.
@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        call_command("load_demo")
        yield
        # Everything the demo made goes (its update templates and users too), as after a
        # transactional test: the next module on this worker starts from an empty database.
        call_command("flush", interactive=False, verbosity=0)


def counts():
    return {model.__name__: model.objects.count() for model in MODELS}


@pytest.mark.django_db
def test_loading_twice_changes_nothing(demo):
    before = counts()
    call_command("load_demo")
    assert counts() == before


@pytest.mark.django_db
def test_demo_has_groups_components_and_90_days_of_rollups(demo):
    assert 3 <= ComponentGroup.objects.count() <= 5
    assert 10 <= Component.objects.count() <= 16
    metric = Metric.objects.get(
        component__slug="webhook-delivery",
        slug=Metric.objects.filter(component__slug="webhook-delivery").first().slug,
    )
    days = Rollup.objects.filter(metric=metric, resolution="day").count()
    assert days == 90
    assert Sample.objects.filter(metric=metric).count() >= 24 * 60
    assert metric.latest_value is not None


@pytest.mark.django_db
def test_demo_incidents_are_written_in_all_four_languages_with_published_postmortems(demo):
    past = Incident.objects.incidents().filter(status="resolved")
    assert past.count() >= 5
    assert set(past.values_list("original_language", flat=True)) == {"en", "ru", "es", "nb"}
    published = Postmortem.objects.filter(state="published")
    assert published.count() >= 5
    for postmortem in published:
        assert postmortem.completeness()[postmortem.original_language]
        assert postmortem.incident.updates.count() >= 4
    assert any(len(p.summary) > 1 for p in published), "some postmortems are translated"


@pytest.mark.django_db
def test_demo_action_items_cover_precisions_and_states(demo):
    items = list(ActionItem.objects.select_related("postmortem"))
    assert {"month", "quarter"} <= {item.due_precision for item in items}
    assert any(item.state == "done" for item in items)
    assert any(item.is_overdue() for item in items)
    assert any(not item.is_overdue() and item.state == "open" for item in items)
    assert all(item.due_date is None or item.due_by >= item.due_date for item in items)
    assert status_page_today() > dt.date(2020, 1, 1)


@pytest.mark.django_db
def test_demo_status_history_matches_the_incidents(demo):
    for component in Component.objects.all():
        periods = list(component.periods.order_by("started_at"))
        assert periods[-1].ended_at is None and periods[-1].status == component.status
        for earlier, later in zip(periods, periods[1:], strict=False):
            assert earlier.ended_at == later.started_at


@pytest.mark.django_db
def test_every_demo_metric_has_a_push_probe_but_the_one_measured_from_three_regions(demo):
    assert Metric.objects.count() > 0
    assert Probe.objects.filter(kind=ProbeKind.PUSH).count() == Metric.objects.count() - 1
    regional = Probe.objects.get(metric__component__slug="public-api", metric__slug="latency-p95")
    assert regional.kind == ProbeKind.HTTP and not regional.enabled
    assert sorted(regional.regions.values_list("name", flat=True)) == ["ap-south", "eu-north", "us-east"]
    assert RegionHealth.objects.filter(metric=regional.metric).count() == 3


def _overview(client) -> str:
    cache.clear()
    return client.get("/").content.decode()


@pytest.mark.django_db
def test_the_demo_feed_adds_one_sample_per_metric_and_the_overview_shows_it_fresh(demo, client, settings):
    settings.DEMO_FEED = True
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0
    later = timezone.now() + dt.timedelta(minutes=10)  # the loaded history has gone silent by then
    with time_machine.travel(later, tick=False):
        assert "no data" in _overview(client)
        before = dict(Metric.objects.values_list("pk", "latest_at"))
        samples = Sample.objects.count()

        # One sample per push metric, and one from each of the regional metric's three regions.
        assert feed() == len(before) + 2

        assert Sample.objects.count() == samples + len(before) + 2
        assert all(at == later for at in Metric.objects.values_list("latest_at", flat=True))
        assert MetricHealth.objects.filter(evaluated_at=later).count() == len(before)
        page = _overview(client)
    assert "no data" not in page
    shown = page.count('<div class="metric">')
    assert shown > 0
    assert page.count('<strong class="value"') == shown
    assert page.count("1 second ago") == shown


@pytest.mark.django_db
def test_the_demo_feed_does_nothing_when_off(demo, settings):
    settings.DEMO_FEED = False
    samples = Sample.objects.count()
    assert feed() == 0
    assert Sample.objects.count() == samples


def _firing(fingerprint: str, **labels) -> ReceivedAlert:
    return ReceivedAlert(
        fingerprint=fingerprint,
        state=AlertState.FIRING,
        labels=labels,
        annotations={},
        starts_at=timezone.now(),
    )


@pytest.mark.django_db
def test_the_demo_alert_rules_move_its_components_when_alerts_arrive(demo):
    """`make run` shows alert intake working: the editor lists rules, and an alert posted to the
    intake moves the component its rule names."""
    stream = Component.objects.get(slug="event-stream")
    drafts_before = Incident.objects.filter(components=stream, published_at__isnull=True).count()

    paged = receive_alerts(
        AlertSource.ALERTMANAGER,
        [_firing("demo-events", alertname="ConsumersDown", service="events", severity="page")],
    )
    lagging = receive_alerts(AlertSource.GRAFANA, [_firing("demo-replica", alertname="ReplicaLagHigh")])
    staging = receive_alerts(
        AlertSource.ALERTMANAGER, [_firing("demo-mail", alertname="MailQueueBacklog", env="staging")]
    )

    assert paged.as_dict()["firing"] == 1 and lagging.as_dict()["firing"] == 1
    assert staging.as_dict()["unknown"] == 1
    assert Component.objects.get(slug="event-stream").status == "major_outage"
    assert Component.objects.get(slug="database").status == "partial_outage"
    assert Incident.objects.filter(components=stream, published_at__isnull=True).count() == drafts_before + 1


@pytest.mark.django_db
def test_incidents_whose_authors_give_times_in_utc_show_their_timelines_in_utc(demo, client):
    """An update saying "went down at 03:09 UTC" sits under times in UTC, not the page's zone."""
    written_in_utc = [
        incident
        for incident in Incident.objects.incidents().published()
        if any("UTC" in text for update in incident.updates.all() for text in update.body.values())
    ]
    assert len(written_in_utc) >= 5
    for incident in written_in_utc:
        page = client.get(f"/incidents/{incident.slug}/").content.decode()
        assert "GMT+00:00" in page, incident.slug
        assert "GMT+01:00" not in page and "GMT+02:00" not in page, incident.slug


def _demo_open_incident() -> Incident:
    return (
        Incident.objects.incidents().published().open().get(slug__endswith="-webhook-slow-endpoint-retries")
    )


@pytest.mark.django_db
def test_resolving_the_demo_incident_returns_its_components_to_operational_while_the_feed_runs(
    demo, settings
):
    """The feed follows the demo's story, whose fix is in by now: nothing measures the incident's
    components outside their thresholds, so resolving returns them to operational, and they stay."""
    settings.DEMO_FEED = True
    incident = _demo_open_incident()
    components = list(incident.components.all())
    assert {c.status for c in components} == {"degraded_performance"}
    now = timezone.now()
    for minute in range(1, 6):
        with time_machine.travel(now + dt.timedelta(minutes=minute), tick=False):
            feed()
    with time_machine.travel(now + dt.timedelta(minutes=6), tick=False):
        resolve_incident(incident, ResolveIncident(body={}, language="en"), actor=None)
        for minute in range(7, 10):
            with time_machine.travel(now + dt.timedelta(minutes=minute), tick=False):
                feed()
    assert set(
        Component.objects.filter(pk__in=[c.pk for c in components]).values_list("status", flat=True)
    ) == {"operational"}


@pytest.mark.django_db
def test_while_the_demo_story_says_the_fault_lasts_resolving_leaves_the_component_held(demo, settings):
    settings.DEMO_FEED = True
    incident = _demo_open_incident()
    # The story's fix comes 34 minutes after the start: move the start so that now is before it.
    during = timezone.now()
    Incident.objects.filter(pk=incident.pk).update(started_at=during - dt.timedelta(minutes=10))
    for minute in range(5):
        with time_machine.travel(during + dt.timedelta(minutes=minute), tick=False):
            feed()
    with time_machine.travel(during + dt.timedelta(minutes=5), tick=False):
        update = resolve_incident(incident, ResolveIncident(body={}, language="en"), actor=None)
    held = update.component_changes.get(component__slug="webhook-delivery")
    assert held.new_status == "degraded_performance"
    assert held.held_by["en"].startswith("held by: ")


@pytest.mark.django_db
def test_the_demo_feed_does_not_keep_a_status_set_by_hand_alive(demo, settings):
    settings.DEMO_FEED = True
    email = Component.objects.get(slug="email-delivery")
    set_component_status(email, status="major_outage", actor=None)
    now = timezone.now()
    for minute in range(1, 6):
        with time_machine.travel(now + dt.timedelta(minutes=minute), tick=False):
            feed()
    assert set(MetricHealth.objects.filter(metric__component=email).values_list("status", flat=True)) == {
        "operational"
    }
