"""Babel output in the four languages, asserted as the real strings readers see."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from incidents import formatting
from incidents.formatting import format_datetime, format_due, format_duration, format_number

MOMENT = dt.datetime(2025, 3, 4, 10, 17, tzinfo=dt.UTC)


@pytest.fixture(autouse=True)
def oslo(settings):
    settings.STATUS_TIME_ZONE = "Europe/Oslo"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Mar 4, 2025, 11:17 GMT+01:00"),
        ("ru", "4 мар. 2025\u202fг., 11:17 GMT+01:00"),
        ("es", "4 mar 2025, 11:17 GMT+01:00"),
        ("nb", "4. mars 2025, 11:17 GMT+01:00"),
    ],
)
def test_datetime_in_the_status_page_zone(language, expected):
    assert format_datetime(MOMENT, language) == expected


def test_summer_time_changes_the_offset():
    assert (
        format_datetime(dt.datetime(2025, 7, 1, 10, 0, tzinfo=dt.UTC), "en") == "Jul 1, 2025, 12:00 GMT+02:00"
    )


@pytest.mark.parametrize(
    ("language", "twenty_three", "ninety"),
    [
        ("en", "23 minutes", "1 hour and 30 minutes"),
        ("ru", "23 минуты", "1 час и 30 минут"),
        ("es", "23 minutos", "1 hora y 30 minutos"),
        ("nb", "23 minutter", "1 time og 30 minutter"),
    ],
)
def test_durations(language, twenty_three, ninety):
    assert format_duration(dt.timedelta(minutes=23), language) == twenty_three
    assert format_duration(dt.timedelta(minutes=90), language) == ninety


@pytest.mark.parametrize(
    ("seconds", "language", "expected"),
    [
        (0, "en", "0 seconds"),
        (0.3, "en", "1 second"),
        (12.4, "ru", "12 секунд"),
        (21, "ru", "21 секунда"),
        (2, "es", "2 segundos"),
        (1, "nb", "1 sekund"),
        (29.6, "en", "30 seconds"),
    ],
)
def test_durations_under_half_a_minute_in_seconds(seconds, language, expected):
    assert format_duration(dt.timedelta(seconds=seconds), language) == expected


@pytest.mark.parametrize(
    ("language", "month", "quarter"),
    [
        ("en", "November 2026", "1st quarter 2025"),
        ("ru", "ноябрь 2026\u202fг.", "1-й квартал 2025\u202fг."),
        ("es", "noviembre de 2026", "1.er trimestre de 2025"),
        ("nb", "november 2026", "1. kvartal 2025"),
    ],
)
def test_month_and_quarter_due_dates(language, month, quarter):
    assert format_due(dt.date(2026, 11, 1), "month", language) == month
    assert format_due(dt.date(2025, 1, 1), "quarter", language) == quarter


def test_day_and_year_due_dates():
    assert format_due(dt.date(2026, 12, 15), "day", "en") == "December 15, 2026"
    assert format_due(dt.date(2018, 7, 13), "day", "es") == "13 de julio de 2018"
    assert format_due(dt.date(2026, 1, 1), "year", "nb") == "2026"


def test_numbers_use_the_language_separators():
    assert format_number(1834.5, "en", precision=1) == "1,834.5"
    assert format_number(12834.5, "es", precision=1) == "12.834,5"
    assert format_number(12834.5, "nb", precision=1) == "12\u00a0834,5"


def test_a_window_within_one_day_says_its_date_and_offset_once():
    start = dt.datetime(2026, 11, 19, 7, 25, tzinfo=dt.UTC)
    end = dt.datetime(2026, 11, 19, 13, 10, tzinfo=dt.UTC)
    first, last, joined = formatting.format_datetime_range(start, end, "ru", zone=ZoneInfo("Europe/Moscow"))
    assert joined.format(first, last) == "19 нояб. 2026\u202fг., 10:25 — 16:10 GMT+03:00"


def test_a_window_across_midnight_gives_both_ends_in_full():
    start = dt.datetime(2026, 12, 5, 22, 0, tzinfo=dt.UTC)
    end = dt.datetime(2026, 12, 6, 1, 0, tzinfo=dt.UTC)
    first, last, joined = formatting.format_datetime_range(start, end, "nb", zone=ZoneInfo("Europe/Oslo"))
    assert joined.format(first, last) == "5. des. 2026, 23:00 GMT+01:00–6. des. 2026, 02:00 GMT+01:00"


NBSP = "\u00a0"


@pytest.mark.parametrize(
    ("language", "seconds_89", "minutes_1_5", "minutes_89", "hours_1_5"),
    [
        ("en", "89.0 sec", "1.5 min", "89 min", "1.5 hr"),
        ("ru", "89,0 с", "1,5 мин", "89 мин", "1,5 ч"),
        ("es", "89,0 s", "1,5 min", "89 min", "1,5 h"),
        ("nb", "89,0 sek", "1,5 min", "89 min", "1,5 t"),
    ],
)
def test_a_time_is_read_in_minutes_from_90_seconds_and_in_hours_from_90_minutes(
    language, seconds_89, minutes_1_5, minutes_89, hours_1_5
):
    def shown(seconds: float) -> str:
        return formatting.format_measure(seconds, "s", language, precision=1).replace(NBSP, " ")

    assert shown(89) == seconds_89
    assert shown(90) == minutes_1_5
    assert shown(89 * 60) == minutes_89
    assert shown(90 * 60) == hours_1_5


@pytest.mark.parametrize(
    ("language", "delay", "exact"),
    [
        ("en", "23 min", "1,380.0 sec"),
        ("ru", "23 мин", "1\u00a0380,0 с"),
        ("es", "23 min", "1.380,0 s"),
        ("nb", "23 min", "1\u00a0380,0 sek"),
    ],
)
def test_a_23_minute_delay_reads_23_minutes_and_keeps_its_exact_seconds(language, delay, exact):
    assert formatting.format_measure(1380, "s", language, precision=1) == delay.replace(" ", NBSP)
    assert formatting.format_exact_measure(1380, "s", language, precision=1) == exact.replace(" ", NBSP)


def test_a_scaled_time_has_at_most_one_decimal():
    assert formatting.format_measure(100, "s", "en", precision=3) == f"1.7{NBSP}min"
    assert formatting.format_measure(4 * 3600, "s", "en", precision=2) == f"4{NBSP}hr"
    assert formatting.format_measure(1234, "ms", "es") == f"1,2{NBSP}s"
    assert formatting.format_measure(999, "ms", "es") == f"999{NBSP}ms"
    assert formatting.format_measure(89.04, "s", "en", precision=2) == f"89.04{NBSP}sec"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "1 day, 7 hours, and 12 minutes"),
        ("ru", "1 день, 7 часов и 12 минут"),
        ("es", "1 día, 7 horas y 12 minutos"),
        ("nb", "1 døgn, 7 timer og 12 minutter"),
    ],
)
def test_a_long_duration_keeps_its_minutes(language, expected):
    assert formatting.format_long_duration(31 * 3600 + 12 * 60, language) == expected
