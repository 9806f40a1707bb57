"""The public pages' fast formatting gives what Babel's own functions give."""

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from babel import Locale
from babel.dates import format_skeleton
from babel.dates import format_time as babel_format_time
from babel.numbers import format_percent as babel_format_percent

from incidents import formatting

LANGUAGES = ["en", "ru", "es", "nb"]
OSLO = ZoneInfo("Europe/Oslo")


def babel_datetime(value: dt.datetime, language: str) -> str:
    locale = Locale.parse(language)
    date = format_skeleton("yMMMd", value, tzinfo=OSLO, locale=locale)
    time = format_skeleton("Hm", value, tzinfo=OSLO, locale=locale)
    offset = babel_format_time(value, "ZZZZ", tzinfo=OSLO, locale=locale)
    return locale.datetime_formats["medium"].format(f"{time} {offset}", date)


@pytest.mark.parametrize("language", LANGUAGES)
def test_dates_read_as_babel_writes_them(language, settings):
    settings.STATUS_TIME_ZONE = "Europe/Oslo"
    locale = Locale.parse(language)
    for value in [
        dt.datetime(2026, 3, 4, 10, 17, tzinfo=dt.UTC),
        dt.datetime(2026, 7, 31, 23, 5, tzinfo=dt.UTC),  # summer time, next day in Oslo
        dt.datetime(2025, 12, 31, 23, 59, tzinfo=dt.UTC),
    ]:
        assert formatting.format_datetime(value, language) == babel_datetime(value, language)
        assert formatting.format_month(value.date(), language) == format_skeleton(
            "yMMMM", value.date(), locale=locale
        )
        assert formatting.format_date(value.date(), language) == format_skeleton(
            "yMMMd", value.date(), locale=locale
        )


@pytest.mark.parametrize("language", LANGUAGES)
def test_percentages_round_and_read_as_babel_writes_them(language):
    values = [100.0, 99.9995, 99.9985, 99.98234, 50.0, 0.0, 0.0004, 12.3456, 2 / 3 * 100, 99.99999999]
    for value in values:
        for precision in (0, 1, 3):
            pattern = "#,##0" + ("." + "0" * precision if precision else "") + " %"
            expected = babel_format_percent(value / 100, format=pattern, locale=Locale.parse(language))
            assert formatting.format_percent(value, language, precision=precision) == expected, value


def test_durations_say_at_most_two_units():
    assert formatting.format_duration(dt.timedelta(minutes=90), "en") == "1 hour and 30 minutes"
    assert formatting.format_duration(dt.timedelta(days=3, minutes=5), "en") == "3 days"
    assert formatting.format_duration(dt.timedelta(hours=2), "ru") == "2 часа"
