"""Locale-aware formatting of dates, times, durations, numbers and due dates.

The only module that imports Babel. Every function takes the page's language and shows times
in the status page's time zone (settings.STATUS_TIME_ZONE).
"""

import datetime as dt
from functools import lru_cache
from zoneinfo import ZoneInfo

from babel import Locale
from babel.dates import format_skeleton, format_timedelta
from babel.dates import format_time as babel_format_time
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.numbers import format_percent as babel_format_percent
from babel.units import format_unit
from django.conf import settings

from incidents.models import DuePrecision

BABEL_LOCALES = {"en": "en", "ru": "ru", "es": "es", "nb": "nb"}


def _locale(language: str) -> Locale:
    return Locale.parse(BABEL_LOCALES.get((language or "en").split("-")[0].lower(), "en"))


def status_zone() -> ZoneInfo:
    return ZoneInfo(settings.STATUS_TIME_ZONE)


def format_datetime(value: dt.datetime, language: str, *, zone: ZoneInfo | None = None) -> str:
    """ "Mar 4, 2025, 11:17 GMT+1" in the page's language and the status page's zone."""
    locale = _locale(language)
    zone = zone or status_zone()
    date = format_skeleton("yMMMd", value, tzinfo=zone, locale=locale)
    time = format_skeleton("Hm", value, tzinfo=zone, locale=locale)
    offset = babel_format_time(value, "ZZZZ", tzinfo=zone, locale=locale)
    return locale.datetime_formats["medium"].format(f"{time} {offset}", date)


def format_time(value: dt.datetime, language: str, *, zone: ZoneInfo | None = None) -> str:
    """ "11:17" in the status page's zone."""
    return format_skeleton("Hm", value, tzinfo=zone or status_zone(), locale=_locale(language))


def format_date(value: dt.date, language: str) -> str:
    return format_skeleton("yMMMd", value, locale=_locale(language))


def format_duration(value: dt.timedelta, language: str) -> str:
    """ "23 minutes", "1 hour and 30 minutes", "3 days": at most two units, as people say it."""
    locale = _locale(language)
    minutes = round(value.total_seconds() / 60)
    if minutes < 1:
        return format_timedelta(value, threshold=1.0, format="long", locale=locale)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [(days, "day"), (hours, "hour"), (minutes, "minute")]
    shown = [(amount, unit) for amount, unit in parts if amount][:2]
    if days and len(shown) > 1 and shown[1][1] == "minute":
        shown = shown[:1]
    texts = [format_unit(amount, f"duration-{unit}", length="long", locale=locale) for amount, unit in shown]
    return format_list(texts, style="standard", locale=locale)


@lru_cache(maxsize=4096)
def format_number(value: float, language: str, *, precision: int = 0) -> str:
    # Cached: pages show the same latest values on every request until new samples arrive.
    pattern = "#,##0" + ("." + "0" * precision if precision else "")
    return format_decimal(value, format=pattern, locale=_locale(language))


def format_due(due: dt.date, precision: str, language: str) -> str:
    """A due date as its precision says: "Dec 15, 2026", "November 2026", "Q1 2025", "2026"."""
    locale = _locale(language)
    if precision == DuePrecision.MONTH:
        return format_skeleton("yMMMM", due, locale=locale)
    if precision == DuePrecision.QUARTER:
        return format_skeleton("yQQQ", due, locale=locale)
    if precision == DuePrecision.YEAR:
        return format_skeleton("y", due, locale=locale)
    return format_skeleton("yMMMd", due, locale=locale)


# --- issue 3: public site ---


def format_age(age: dt.timedelta, language: str) -> str:
    """ "40 seconds ago", "3 minutes ago": how old a value is, as people say it."""
    # Not "in 0 seconds" for a value of this very moment; whole seconds, so texts repeat and cache.
    return _age_text(max(round(age.total_seconds()), 1), language)


@lru_cache(maxsize=4096)
def _age_text(seconds: int, language: str) -> str:
    return format_timedelta(
        dt.timedelta(seconds=-seconds),
        add_direction=True,
        threshold=1.5,
        format="long",
        locale=_locale(language),
    )


def format_percent(value: float, language: str, *, precision: int = 3) -> str:
    """ "99.982 %" with the page's decimal separator and percent sign."""
    pattern = "#,##0" + ("." + "0" * precision if precision else "") + " %"
    return babel_format_percent(value / 100, format=pattern, locale=_locale(language))


def format_month(value: dt.date, language: str) -> str:
    """ "March 2026" as a heading."""
    return format_skeleton("yMMMM", value, locale=_locale(language))


def format_day(value: dt.date, language: str) -> str:
    return format_skeleton("yMMMd", value, locale=_locale(language))


def language_name(code: str, language: str) -> str:
    """The name of language `code` in `language` ("Russian", "ruso", "русский")."""
    return Locale.parse(BABEL_LOCALES.get(code, code)).get_display_name(_locale(language)) or code
