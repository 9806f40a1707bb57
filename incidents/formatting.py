"""Locale-aware formatting of dates, times, durations, numbers and due dates: the only module that
imports Babel. Times are shown in the status page's zone unless given another (an incident's)."""

import datetime as dt
from functools import cache, lru_cache
from zoneinfo import ZoneInfo

from babel import Locale
from babel.core import get_global
from babel.dates import (
    DateTimePattern,
    format_skeleton,
    format_timedelta,
    get_timezone_name,
    match_skeleton,
    parse_pattern,
)
from babel.dates import (
    format_date as babel_format_date,
)
from babel.lists import format_list
from babel.numbers import format_decimal
from babel.numbers import format_percent as babel_format_percent
from babel.units import format_unit
from django.conf import settings
from django.utils import translation

from incidents.models import DuePrecision

BABEL_LOCALES = {"en": "en", "ru": "ru", "es": "es", "nb": "nb"}


def _locale(language: str) -> Locale:
    return _parsed_locale(_code(language))


@cache
def _code(language: str) -> str:
    """The Babel locale of a page language ("en" for languages without one)."""
    return BABEL_LOCALES.get((language or "en").split("-")[0].lower(), "en")


# Pages format hundreds of dates, numbers and durations: what depends only on the locale (the
# locale itself, the pattern a skeleton resolves to, the symbols) is looked up once per process.
# The results are Babel's own; tests/public/test_formatting.py compares them.


@cache
def _parsed_locale(code: str) -> Locale:
    return Locale.parse(code)


@cache
def _skeleton_pattern(skeleton: str, code: str) -> DateTimePattern:
    """What format_skeleton(skeleton, …) applies in this locale."""
    locale = _parsed_locale(code)
    return parse_pattern(locale.datetime_skeletons[match_skeleton(skeleton, locale.datetime_skeletons)])


@cache
def _offset_pattern() -> DateTimePattern:
    return parse_pattern("ZZZZ")


def _skeleton(skeleton: str, value: dt.date | dt.datetime, language: str) -> str:
    code = _code(language)
    return _skeleton_pattern(skeleton, code).apply(value, _parsed_locale(code))


def status_zone() -> ZoneInfo:
    return ZoneInfo(settings.STATUS_TIME_ZONE)


# Times before this are shown as stored: no zone had rules then, and a time near year 1 or 9999
# cannot be moved into one (OverflowError), which would take down every page that shows it.
EARLIEST_LOCAL = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


def in_zone(value: dt.datetime, zone: ZoneInfo) -> dt.datetime | None:
    """`value` in `zone`, or None when it cannot be shown there."""
    if value < EARLIEST_LOCAL:
        return None
    try:
        return value.astimezone(zone)
    except (OverflowError, ValueError):
        return None


def utc_text(value: dt.datetime) -> str:
    """ "9999-12-31T23:59Z": how a time that cannot be shown in the page's zone is shown."""
    try:
        value = value.astimezone(dt.UTC)
    except (OverflowError, ValueError):
        pass
    return value.isoformat(timespec="minutes").replace("+00:00", "Z")


def format_datetime(
    value: dt.datetime, language: str, *, zone: ZoneInfo | None = None, zone_name: bool = False
) -> str:
    """ "Mar 4, 2025, 11:17 GMT+1"; with `zone_name`, "… GMT+03:00 (Moscow Standard Time)"."""
    code = _code(language)
    locale = _parsed_locale(code)
    local = in_zone(value, zone or status_zone())
    if local is None:
        return utc_text(value)
    date, time, offset = _date_time_offset(local, code, locale)
    text = locale.datetime_formats["medium"].format(f"{time} {offset}", date)
    if zone_name:
        return f"{text} ({get_timezone_name(local, width='long', locale=locale)})"
    return text


def format_time_zone(zone: ZoneInfo, language: str, *, at: dt.datetime) -> str:
    """ "Moscow Standard Time": the zone's name at `at` (summer or standard time as it was then)."""
    local = in_zone(at, zone)
    if local is None:
        return zone.key
    return get_timezone_name(local, width="long", locale=_locale(language))


def format_date(value: dt.date, language: str) -> str:
    return _skeleton("yMMMd", value, language)


def format_long_date(value: dt.date, language: str) -> str:
    """The date written out: "12. september 2026", "13 de julio de 2018", "July 13, 2018"."""
    return babel_format_date(value, format="long", locale=_locale(language))


def format_full_date(value: dt.date, language: str) -> str:
    """The date in full with its weekday: "viernes, 13 de julio de 2018", "fredag 13. juli 2018"."""
    return babel_format_date(value, format="full", locale=_locale(language))


def _date_time_offset(local: dt.datetime, code: str, locale: Locale) -> tuple[str, str, str]:
    """ "Nov 19, 2026", "08:25" and "GMT+01:00": the parts a medium date and time is made of."""
    return _wall_time_parts(local.replace(tzinfo=None), local.utcoffset(), code)


# The same few times (open events, their updates) are written on every render: by wall time and
# offset, which is all the three patterns read, rather than by instant (equal across zones).
@lru_cache(maxsize=4096)
def _wall_time_parts(wall: dt.datetime, offset: dt.timedelta | None, code: str) -> tuple[str, str, str]:
    locale = _parsed_locale(code)
    local = wall.replace(tzinfo=dt.timezone(offset)) if offset is not None else wall
    return (
        _skeleton_pattern("yMMMd", code).apply(local, locale),
        _skeleton_pattern("Hm", code).apply(local, locale),
        _offset_pattern().apply(local, locale),
    )


def format_datetime_range(
    start: dt.datetime, end: dt.datetime, language: str, *, zone: ZoneInfo | None = None
) -> tuple[str, str, str]:
    """A window's two ends and their joining pattern; within one day the end is only its time."""
    code = _code(language)
    locale = _parsed_locale(code)
    joined = locale.interval_formats.get(None) or "{0} – {1}"
    medium = locale.datetime_formats["medium"]
    first, last = in_zone(start, zone or status_zone()), in_zone(end, zone or status_zone())
    one_day = first and last and first.date() == last.date() and first.utcoffset() == last.utcoffset()
    if not one_day or medium.index("{1}") > medium.index("{0}"):  # only for date-first languages
        return format_datetime(start, language, zone=zone), format_datetime(end, language, zone=zone), joined
    date, start_time, _offset = _date_time_offset(first, code, locale)
    _date, end_time, offset = _date_time_offset(last, code, locale)
    return medium.format(start_time, date), f"{end_time} {offset}", joined


def format_long_datetime(value: dt.datetime, language: str, *, zone: ZoneInfo | None = None) -> str:
    """ "lørdag 12. september 2026 kl. 10:41 GMT+2": the full date, the time and its offset."""
    code = _code(language)
    locale = _parsed_locale(code)
    local = in_zone(value, zone or status_zone())
    if local is None:
        return utc_text(value)
    date = format_full_date(local.date(), language)
    time = _skeleton_pattern("Hm", code).apply(local, locale)
    offset = _offset_pattern().apply(local, locale)
    return locale.datetime_formats["long"].format(f"{time} {offset}", date)


def format_duration(value: dt.timedelta, language: str) -> str:
    """ "23 minutes", "1 hour and 30 minutes", "3 days": at most two units, as people say it."""
    seconds = value.total_seconds()
    minutes = round(seconds / 60)
    if minutes < 1:
        if seconds >= 0:  # under half a minute
            return _seconds_text(max(1, round(seconds)) if seconds else 0, _code(language))
        return format_timedelta(value, threshold=1.0, format="long", locale=_locale(language))
    shown = _units(minutes)[:2]
    if [unit for _amount, unit in shown] == ["day", "minute"]:
        shown = shown[:1]
    return _duration_text(shown, _code(language))


def _units(minutes: int) -> tuple[tuple[int, str], ...]:
    """(amount, unit) of the days, hours and minutes in `minutes`, leaving out those at 0."""
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    return tuple(
        (amount, unit) for amount, unit in ((days, "day"), (hours, "hour"), (minutes, "minute")) if amount
    )


@cache
def _seconds_text(seconds: int, code: str) -> str:
    """ "0 seconds" to "29 seconds", as Babel says them."""
    delta = dt.timedelta(seconds=seconds)
    return format_timedelta(delta, threshold=1.0, format="long", locale=_parsed_locale(code))


@cache
def _duration_text(shown: tuple[tuple[int, str], ...], code: str) -> str:
    # At most 31 days, 23 hours and 59 minutes a part: a small table, filled as pages ask.
    locale = _parsed_locale(code)
    texts = [format_unit(amount, f"duration-{unit}", length="long", locale=locale) for amount, unit in shown]
    return format_list(texts, style="standard", locale=locale)


def format_incident_duration(seconds: int, language: str) -> str:
    """ "1 day, 7 hr, 12 min": how long an incident lasted, exact to the minute, never rounded."""
    seconds = max(0, int(seconds))
    if seconds < 60:
        return _units_text(((seconds, "second"),), _code(language))
    return _units_text(_units((seconds + 30) // 60), _code(language))


def format_long_duration(seconds: float, language: str) -> str:
    """ "1 day, 7 hours, and 12 minutes": every unit to the minute, in the long forms."""
    minutes = round(max(0.0, seconds) / 60)
    if minutes < 1:
        return _seconds_text(max(1, round(seconds)) if seconds > 0 else 0, _code(language))
    return _duration_text(_units(minutes), _code(language))


@cache
def _units_text(shown: tuple[tuple[int, str], ...], code: str) -> str:
    locale = _parsed_locale(code)
    texts = [format_unit(amount, f"duration-{unit}", length="short", locale=locale) for amount, unit in shown]
    return _joined_units(texts, _unit_list_patterns(code))


@cache
def _unit_list_patterns(code: str) -> dict[str, str]:
    # Babel does not inherit list patterns: Spanish and Norwegian give only the "end" of
    # "unit-short". The keys they lack come from CLDR's root, "{0}, {1}".
    patterns = _parsed_locale(code).list_patterns
    own = dict(patterns["unit-short"]) if "unit-short" in patterns else {}
    return {key: own.get(key, "{0}, {1}") for key in ("start", "middle", "end", "2")}


def _joined_units(texts: list[str], patterns: dict[str, str]) -> str:
    if len(texts) == 1:
        return texts[0]
    if len(texts) == 2:
        return patterns["2"].format(*texts)
    joined = patterns["end"].format(texts[-2], texts[-1])
    for text in reversed(texts[1:-2]):
        joined = patterns["middle"].format(text, joined)
    return patterns["start"].format(texts[0], joined)


@lru_cache(maxsize=4096)
def format_number(value: float, language: str, *, precision: int = 0) -> str:
    # Cached: pages show the same latest values on every request until new samples arrive.
    pattern = "#,##0" + ("." + "0" * precision if precision else "")
    return format_decimal(value, format=pattern, locale=_locale(language))


_MEASURE_UNITS = {"ms": "duration-millisecond", "s": "duration-second", "%": "concentr-percent"}

# A time is read in the largest unit it reaches this many seconds of: "89 s", "1.5 min",
# "89 min", "1.5 h"; a time in milliseconds from a second on in seconds ("1.2 s").
_TIME_SCALES = ((90 * 60, 3600, "duration-hour"), (90, 60, "duration-minute"))
_SECONDS_PER_UNIT = {"s": 1, "ms": 0.001}
SCALED_PATTERN = "#,##0.#"  # at most one decimal once scaled


@lru_cache(maxsize=4096)
def format_measure(value: float, unit: str, language: str, *, precision: int = 0) -> str:
    """ "234 ms", "1.2 s", "23 min": a metric's value in the unit a person reads it in, on one line."""
    per_unit = _SECONDS_PER_UNIT.get(unit)
    if per_unit is not None:
        seconds = value * per_unit
        for reached, size, cldr_unit in _TIME_SCALES:
            if abs(seconds) >= reached:
                return _unit_text(seconds / size, cldr_unit, SCALED_PATTERN, language)
        if unit == "ms" and abs(seconds) >= 1:
            return _unit_text(seconds, "duration-second", SCALED_PATTERN, language)
    return format_exact_measure(value, unit, language, precision=precision)


@lru_cache(maxsize=4096)
def format_exact_measure(value: float, unit: str, language: str, *, precision: int = 0) -> str:
    """ "1,380.0 s": a metric's value in its own unit and precision; a count as the number alone."""
    pattern = "#,##0" + ("." + "0" * precision if precision else "")
    cldr_unit = _MEASURE_UNITS.get(unit)
    if cldr_unit is None:
        return format_decimal(value, format=pattern, locale=_locale(language))
    return _unit_text(value, cldr_unit, pattern, language)


def _unit_text(value: float, cldr_unit: str, pattern: str, language: str) -> str:
    text = format_unit(value, cldr_unit, length="short", format=pattern, locale=_locale(language))
    return text.replace(" ", "\u00a0")


DUE_SKELETONS = {DuePrecision.MONTH: "yMMMM", DuePrecision.QUARTER: "yQQQQ", DuePrecision.YEAR: "y"}


def format_due(due: dt.date, precision: str, language: str) -> str:
    """A due date as its precision says: "December 15, 2026", "4th quarter 2024", "2026"."""
    skeleton = DUE_SKELETONS.get(precision)
    return (
        format_skeleton(skeleton, due, locale=_locale(language))
        if skeleton
        else format_long_date(due, language)
    )


def format_age(age: dt.timedelta, language: str) -> str:
    """ "40 seconds ago", "3 minutes ago": how old a value is, as people say it."""
    # Not "in 0 seconds" for a value of this very moment; whole seconds, so texts repeat and cache.
    return _relative_text(-max(round(age.total_seconds()), 1), language)


def format_time_left(remaining: dt.timedelta, language: str) -> str:
    """ "in 3 days", "in 2 years": how long until a time comes, as people say it."""
    # Whole minutes, so texts repeat and cache.
    return _relative_text(60 * max(round(remaining.total_seconds() / 60), 1), language)


@lru_cache(maxsize=4096)
def _relative_text(seconds: int, language: str) -> str:
    """ "in 3 days" for seconds ahead, "3 minutes ago" for seconds back (negative)."""
    delta = dt.timedelta(seconds=seconds)
    return format_timedelta(delta, add_direction=True, threshold=1.5, format="long", locale=_locale(language))


def format_percent(value: float, language: str, *, precision: int = 3) -> str:
    """ "99.982 %" with the page's decimal separator and percent sign."""
    pattern = "#,##0" + ("." + "0" * precision if precision else "") + " %"
    return babel_format_percent(value / 100, format=pattern, locale=_locale(language))


def format_month(value: dt.date, language: str) -> str:
    """ "March 2026" as a heading."""
    return _skeleton("yMMMM", value, language)


def format_month_short(value: dt.date, language: str) -> str:
    """ "Mar": a month in a list under its year."""
    return _skeleton("MMM", value, language)


def format_clock_time(value: dt.datetime, language: str, *, zone: ZoneInfo | None = None) -> str:
    """ "14:00": the time of day alone, in `zone` (the status page's by default)."""
    local = in_zone(value, zone or status_zone())
    if local is None:
        return utc_text(value)
    return _skeleton("Hm", local, language)


def format_day_time(value: dt.datetime, language: str, *, zone: ZoneInfo | None = None) -> str:
    """ "Mar 4, 14:00": the day without its year and the time of day."""
    local = in_zone(value, zone or status_zone())
    if local is None:
        return utc_text(value)
    code = _code(language)
    joined = _parsed_locale(code).datetime_formats["short"]
    return joined.format(_skeleton("Hm", local, language), _skeleton("MMMd", local, language))


def language_name(code: str, language: str) -> str:
    """The name of language `code` in `language` ("Russian", "ruso", "русский")."""
    return Locale.parse(BABEL_LOCALES.get(code, code)).get_display_name(_locale(language)) or code


def language_names(codes: list[str], language: str) -> str:
    """ "Russian and Spanish": languages named and joined as the page's language lists them."""
    names = [language_name(code, language) for code in codes]
    return format_list(names, style="standard", locale=_locale(language)) if names else ""


@cache
def locale_identifier(code: str) -> str:
    """Language and territory as Open Graph's og:locale writes them ("en_US", "nb_NO")."""
    code = BABEL_LOCALES.get(code, code)
    locale = Locale.parse(get_global("likely_subtags").get(code, code))
    return f"{locale.language}_{locale.territory}" if locale.territory else locale.language


_BYTE_UNITS = (
    (1000**4, "digital-terabyte"),
    (1000**3, "digital-gigabyte"),
    (1000**2, "digital-megabyte"),
    (1000, "digital-kilobyte"),
    (1, "digital-byte"),
)


def format_key_figure(value: float, unit: str, language: str) -> str:
    """A postmortem's key figure: "23 min", "10 с", "99.2 %", "1.5 GB", "1,200 req/s"."""
    if unit == "duration":
        return format_incident_duration(round(value), language)
    if unit == "percent":
        return babel_format_percent(value / 100, format="#,##0.### %", locale=_locale(language))
    if unit == "bytes":
        return _bytes_text(value, language)
    number = format_decimal(value, format="#,##0.###", locale=_locale(language))
    if unit == "requests_per_second":
        with translation.override(_code(language)):
            return translation.gettext("%(number)s req/s") % {"number": number}
    return number


def _bytes_text(value: float, language: str) -> str:
    scale, unit = next((scale, unit) for scale, unit in _BYTE_UNITS if abs(value) >= scale or scale == 1)
    return format_unit(value / scale, unit, length="short", format="#,##0.#", locale=_locale(language))
