"""Uptime per month from the counted months (UptimeMonth) and the running period."""

import datetime as dt

import pytest
import time_machine

from incidents import selectors
from incidents.formatting import status_zone
from incidents.metrics.uptime import month_starts, spans
from incidents.models import Component, UptimeMonth
from incidents.services.components import save_component, set_component_status
from incidents.services.uptime_months import recount_uptime_months

from .conftest import NOW

pytestmark = pytest.mark.django_db


def at(month: int, day: int, hour: int = 0, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, month, day, hour, minute, tzinfo=dt.UTC)


@pytest.fixture
def api(admin):
    with time_machine.travel(at(1, 1)):
        component = save_component(Component(slug="api", name={"en": "API"}), actor=admin)
    # February: 7 h 12 min of major outage; late March (across the summer time change in Oslo,
    # 29 March) a partial outage still running now; degraded time in between.
    changes = [
        (at(2, 10, 8), "major_outage"),
        (at(2, 10, 15, 12), "operational"),
        (at(3, 1, 22, 30), "degraded_performance"),  # 1 March 23:30 in Oslo
        (at(3, 2, 1), "operational"),
        (at(3, 9, 12), "partial_outage"),
    ]
    for when, status in changes:
        with time_machine.travel(when):
            set_component_status(component, status=status, actor=admin)
    component.refresh_from_db()
    with time_machine.travel(NOW, tick=False):  # replay and counted months at the same instant
        yield component


def replayed(component: Component) -> list:
    """What the page showed before months were counted: every period replayed."""
    boundaries = month_starts(months=3, now=NOW, zone=status_zone())
    periods = selectors.status_periods([component.pk], since=boundaries[0])
    return spans(periods[component.pk], boundaries, now=NOW, observed_from=None)


def seconds(month_spans) -> list[dict[str, float]]:
    return [
        {status: round(value, 3) for status, value in span.seconds.items() if value} for span in month_spans
    ]


def test_counted_months_give_what_replaying_the_periods_gives(api):
    _months, by_component = selectors.uptime_by_month([api])
    assert seconds(by_component[api.pk]) == seconds(replayed(api))
    january, february, march = by_component[api.pk]
    assert january.uptime == 100.0
    assert february.down_seconds == 7.2 * 3600
    assert round(february.uptime, 3) == round(100 * (1 - 7.2 / (28 * 24)), 3)
    assert march.degraded_seconds == 2.5 * 3600
    assert march.down_seconds == pytest.approx((NOW - at(3, 9, 12)).total_seconds(), abs=5)


def test_a_status_change_adds_the_closed_period_to_its_month(api, admin):
    before = UptimeMonth.objects.get(component=api, month=dt.date(2026, 3, 1)).partial_outage_seconds
    with time_machine.travel(at(3, 10, 0)):
        set_component_status(api, status="operational", actor=admin)
    row = UptimeMonth.objects.get(component=api, month=dt.date(2026, 3, 1))
    assert row.partial_outage_seconds - before == 12 * 3600


def test_recounting_gives_the_months_the_status_changes_wrote(api):
    written = seconds(selectors.uptime_by_month([api])[1][api.pk])
    recount_uptime_months([api])
    assert seconds(selectors.uptime_by_month([api])[1][api.pk]) == written


def test_a_new_start_date_recounts_the_months(api, admin):
    api.start_date = dt.date(2026, 2, 10)  # midnight in Oslo: 9 February 23:00 UTC
    save_component(api, actor=admin)
    february = selectors.uptime_by_month([api])[1][api.pk][1]
    assert february.observed == (at(3, 1) - at(2, 9, 23)).total_seconds() - 3600  # Oslo is UTC+1
    assert set(UptimeMonth.objects.filter(component=api).values_list("counted_from", flat=True)) == {
        dt.date(2026, 2, 10)
    }


def test_a_start_date_changed_around_the_services_is_replayed_from_the_periods(api):
    Component.objects.filter(pk=api.pk).update(start_date=dt.date(2026, 2, 11))
    api.refresh_from_db()
    by_component = selectors.uptime_by_month([api])[1]
    boundaries = month_starts(months=3, now=NOW, zone=status_zone())
    periods = selectors.status_periods([api.pk], since=boundaries[0])[api.pk]
    observed = dt.datetime(2026, 2, 11, tzinfo=status_zone())
    assert seconds(by_component[api.pk]) == seconds(
        spans(periods, boundaries, now=NOW, observed_from=observed)
    )
    assert by_component[api.pk][1].down_seconds == 0  # the outage of 10 February is before the start


def test_renders_within_one_minute_show_the_same_figures_and_answer_304(client, settings, api):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0  # rendered afresh on every request
    with time_machine.travel(NOW + dt.timedelta(seconds=5), tick=False):
        first = client.get("/uptime/")
    with time_machine.travel(NOW + dt.timedelta(seconds=55), tick=False):
        again = client.get("/uptime/", HTTP_IF_NONE_MATCH=first["ETag"])
    with time_machine.travel(NOW + dt.timedelta(minutes=1, seconds=5), tick=False):
        next_minute = client.get("/uptime/")

    assert again.status_code == 304
    # The partial outage still running counts one minute more.
    assert next_minute.content != first.content
    assert next_minute["ETag"] != first["ETag"]
