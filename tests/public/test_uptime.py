"""Uptime from status periods: the formula the uptime page states."""

import datetime as dt
from zoneinfo import ZoneInfo

from incidents.metrics.uptime import Period, day_starts, month_starts, overall, spans

OSLO = ZoneInfo("Europe/Oslo")
NOW = dt.datetime(2026, 3, 10, 12, 0, tzinfo=dt.UTC)


def at(day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 3, day, hour, minute, tzinfo=dt.UTC)


def test_outages_count_as_down_and_degraded_as_up():
    boundaries = [at(1, 0), at(2, 0)]
    periods = [
        Period("operational", at(1, 0), at(1, 6)),
        Period("degraded_performance", at(1, 6), at(1, 12)),
        Period("partial_outage", at(1, 12), at(1, 15)),
        Period("major_outage", at(1, 15), at(1, 18)),
        Period("under_maintenance", at(1, 18), at(2, 0)),
    ]
    (day,) = spans(periods, boundaries, now=NOW)
    assert day.observed == 24 * 3600
    assert day.down_seconds == 6 * 3600
    assert day.degraded_seconds == 6 * 3600
    assert day.uptime == 75.0
    assert day.worst == "major_outage"


def test_unobserved_time_counts_for_nothing():
    boundaries = [at(1, 0), at(2, 0)]
    (day,) = spans(
        [Period("partial_outage", at(1, 12), at(1, 18)), Period("operational", at(1, 18), None)],
        boundaries,
        now=NOW,
    )
    assert day.observed == 12 * 3600 and day.uptime == 50.0
    (empty,) = spans([], boundaries, now=NOW)
    assert empty.uptime is None and empty.worst is None


def test_open_period_ends_now_and_periods_split_across_days():
    boundaries = day_starts(days=2, now=NOW, zone=dt.UTC)
    days = spans([Period("major_outage", at(9, 22), None)], boundaries, now=NOW)
    assert [d.down_seconds for d in days] == [2 * 3600, 12 * 3600]
    assert overall(days).down_seconds == 14 * 3600


def test_days_follow_the_status_page_zone():
    boundaries = day_starts(days=1, now=NOW, zone=OSLO)
    assert boundaries[0] == dt.datetime(2026, 3, 10, tzinfo=OSLO)
    # 23:30 UTC on 9 March is already 10 March in Oslo.
    (today,) = spans([Period("major_outage", at(9, 23, 30), at(10, 0, 30))], boundaries, now=NOW)
    assert today.down_seconds == 3600


def test_observation_starts_at_the_start_date():
    boundaries = [at(1, 0), at(2, 0)]
    (day,) = spans([Period("major_outage", at(1, 0), at(2, 0))], boundaries, now=NOW, observed_from=at(1, 12))
    assert day.observed == 12 * 3600


def test_month_starts_cover_the_last_months_in_order():
    starts = month_starts(months=3, now=NOW, zone=OSLO)
    assert [s.date() for s in starts] == [
        dt.date(2026, 1, 1),
        dt.date(2026, 2, 1),
        dt.date(2026, 3, 1),
        dt.date(2026, 4, 1),
    ]
    december = month_starts(months=2, now=dt.datetime(2026, 12, 15, tzinfo=dt.UTC), zone=OSLO)
    assert [s.date() for s in december] == [dt.date(2026, 11, 1), dt.date(2026, 12, 1), dt.date(2027, 1, 1)]
