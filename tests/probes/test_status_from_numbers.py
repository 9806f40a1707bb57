"""From numbers to status: windows, failures as worst, hysteresis, no data, maintenance, pins,
the audit figure and draft incidents."""

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from incidents.lifecycle.commands import DeclareIncident, ScheduleMaintenance
from incidents.lifecycle.opening import declare_incident, schedule_maintenance
from incidents.metrics.readings import metric_reading
from incidents.models import (
    AuditEvent,
    ComponentStatus,
    Incident,
    MetricHealth,
    Outcome,
    StatusMode,
)
from incidents.services.health import evaluate_metrics, mark_stale_metrics
from incidents.services.metrics import NewSample, record_samples


@pytest.fixture
def metric(make_metric, automatic_component):
    return make_metric(automatic_component)


def feed(metric, *values):
    """Stores samples one evaluation at a time, as probe runs would (None is a failed run)."""
    for value in values:
        at = timezone.now()
        if metric.latest_at and at <= metric.latest_at:
            at = metric.latest_at + dt.timedelta(milliseconds=1)
        entry = NewSample(metric, value, at, Outcome.OK if value is not None else Outcome.TIMEOUT)
        record_samples([entry])
        evaluate_metrics({metric.pk: [(entry.at, entry.value)]})
    metric.component.refresh_from_db()
    return metric.component


def test_a_breach_moves_an_automatic_component_at_once(metric):
    component = feed(metric, 20, 700, 700)
    assert component.status == ComponentStatus.PARTIAL_OUTAGE


def test_one_spike_in_the_window_is_not_the_p95(metric):
    # Window 3, p95 by nearest rank (as the rollups read it): one spike in three is not the figure.
    component = feed(metric, 20, 30, 700)
    assert component.status == ComponentStatus.OPERATIONAL
    assert MetricHealth.objects.get(metric=metric).figure == 30


def test_failures_and_timeouts_count_as_the_worst_value(metric):
    component = feed(metric, None, None, None)
    assert component.status == ComponentStatus.MAJOR_OUTAGE


def test_recovery_needs_n_good_evaluations_in_a_row(metric):
    component = feed(metric, 2000, 2000, 2000)
    assert component.status == ComponentStatus.MAJOR_OUTAGE
    component = feed(metric, 10, 10, 10)  # the window is good from the third sample on
    assert component.status == ComponentStatus.MAJOR_OUTAGE
    component = feed(metric, 10, 10)
    assert component.status == ComponentStatus.OPERATIONAL


def test_a_bad_evaluation_restarts_the_recovery_count(metric):
    feed(metric, 2000, 2000, 2000, 10, 10, 10)  # two good evaluations so far
    feed(metric, 2000, 2000)  # the window's p95 is 2000 again: the count starts over
    component = feed(metric, 10, 10, 10)  # two good evaluations again
    assert component.status == ComponentStatus.MAJOR_OUTAGE
    component = feed(metric, 10)
    assert component.status == ComponentStatus.OPERATIONAL


def test_each_automatic_change_is_audited_with_the_figure(metric):
    feed(metric, 20, 700, 700)
    event = AuditEvent.objects.filter(action="component.status_changed").latest("at")
    assert event.actor_label == "probes"
    assert event.after["status"] == "partial_outage"
    assert "700 ms" in event.after["reason"]
    assert "95th percentile of the last 3 samples" in event.after["reason"]


def test_a_breach_to_outage_opens_one_draft_incident(metric):
    feed(metric, 700, 700, 700, 2000, 2000, 2000)
    assert metric.component.status == ComponentStatus.MAJOR_OUTAGE
    drafts = Incident.objects.filter(published_at__isnull=True)
    assert drafts.count() == 1
    draft = drafts.get()
    assert draft.is_draft and draft.is_open
    assert list(draft.components.all()) == [metric.component]
    assert "700 ms" in draft.updates.get().body["en"]
    assert not Incident.objects.published().exists()


def test_degraded_performance_opens_no_draft(metric):
    feed(metric, 200, 200, 200)
    assert metric.component.status == ComponentStatus.DEGRADED_PERFORMANCE
    assert not Incident.objects.exists()


def test_a_manual_component_is_not_moved_by_its_metrics(metric):
    metric.component.status_mode = StatusMode.MANUAL
    metric.component.save()
    component = feed(metric, 2000, 2000, 2000)
    assert component.status == ComponentStatus.OPERATIONAL
    assert MetricHealth.objects.get(metric=metric).status == ComponentStatus.MAJOR_OUTAGE


def test_an_open_published_incident_pins_the_component(metric):
    declare_incident(
        DeclareIncident(
            title="Investigating",
            language="en",
            body="We look.",
            component_statuses={metric.component: ComponentStatus.DEGRADED_PERFORMANCE},
        ),
        actor=None,
    )
    component = feed(metric, 2000, 2000, 2000)
    assert component.status == ComponentStatus.DEGRADED_PERFORMANCE


def test_probes_keep_measuring_during_maintenance_but_do_not_change_status(metric):
    now = timezone.now()
    schedule_maintenance(
        ScheduleMaintenance(
            title="Database upgrade",
            language="en",
            body="Planned.",
            scheduled_for=now - dt.timedelta(minutes=5),
            scheduled_until=now + dt.timedelta(hours=1),
            component_statuses={},
        ),
        actor=None,
    ).components.add(metric.component)
    component = feed(metric, 2000, 2000, 2000)
    assert component.status == ComponentStatus.OPERATIONAL
    assert metric.samples.count() == 3
    assert MetricHealth.objects.get(metric=metric).status == ComponentStatus.MAJOR_OUTAGE


def test_a_metric_silent_for_three_intervals_reads_as_no_data(metric):
    feed(metric, 20)
    metric.refresh_from_db()
    assert metric_reading(metric).no_data is False
    assert metric_reading(metric).value == 20
    later = metric.latest_at + dt.timedelta(seconds=3 * metric.expected_interval + 1)
    reading = metric_reading(metric, now=later)
    assert reading.no_data is True
    assert reading.value is None and reading.status is None


def test_a_metric_that_never_reported_is_no_data_not_operational(metric):
    assert metric_reading(metric).no_data is True


def test_going_silent_is_recorded_once_in_the_audit_trail(metric):
    feed(metric, 20)
    later = timezone.now() + dt.timedelta(seconds=3 * metric.expected_interval + 5)
    with time_machine.travel(later):
        assert mark_stale_metrics() == [metric.pk]
        assert mark_stale_metrics() == []
    assert AuditEvent.objects.filter(action="metric.no_data", subject_id=str(metric.pk)).count() == 1


def test_a_silent_metric_does_not_drive_the_component(make_metric, metric):
    other = make_metric(metric.component, slug="errors")
    feed(other, 2000, 2000, 2000)
    assert metric.component.status == ComponentStatus.MAJOR_OUTAGE
    # Long after `other` went silent, `metric` recovering brings the component back.
    later = timezone.now() + dt.timedelta(minutes=5)
    with time_machine.travel(later):
        feed(metric, 2000, 2000, 2000)
        component = feed(metric, 10, 10, 10, 10, 10)
    assert component.status == ComponentStatus.OPERATIONAL
