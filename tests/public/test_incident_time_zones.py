"""An incident shows its times in its own time zone, named, wherever people read it: its page
in every language, its history row, the feed entries and the mails; the page's zone by default."""

import datetime as dt

import feedparser
import pytest
from django.core import mail

from incidents.channels import outbox
from incidents.lifecycle.commands import DeclareIncident, PostUpdate, ResolveIncident
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import post_update, resolve_incident
from incidents.services.subscriptions import confirm_subscription, subscribe

pytestmark = pytest.mark.django_db

PREFIXES = {"en": "", "ru": "/ru", "es": "/es", "nb": "/nb"}
# 00:00 to 00:50 on 12 September 2025 in Moscow (UTC+3): 23:00 to 23:50 the day before in Oslo.
MOSCOW_MIDNIGHT = dt.datetime(2025, 9, 11, 21, 0, tzinfo=dt.UTC)
# CLDR puts a narrow no-break space (U+202F) before "г." in Russian dates.
FIRST = {
    "en": "Sep 12, 2025, 00:00 GMT+03:00",
    "ru": "12 сент. 2025\u202fг., 00:00 GMT+03:00",
    "es": "12 sept 2025, 0:00 GMT+03:00",
    "nb": "12. sep. 2025, 00:00 GMT+03:00",
}
LAST = {
    "en": "Sep 12, 2025, 00:50 GMT+03:00",
    "ru": "12 сент. 2025\u202fг., 00:50 GMT+03:00",
    "es": "12 sept 2025, 0:50 GMT+03:00",
    "nb": "12. sep. 2025, 00:50 GMT+03:00",
}
MOSCOW_NAME = {
    "en": "Moscow Standard Time",
    "ru": "Москва, стандартное время",
    "es": "hora estándar de Moscú",
    "nb": "normaltid for Moskva",
}


def at_moscow_minute(minute: int) -> dt.datetime:
    return MOSCOW_MIDNIGHT + dt.timedelta(minutes=minute)


def declare_in_moscow(admin):
    """Declared at 00:00 Moscow time, shown in Moscow time."""
    return declare_incident(
        DeclareIncident(
            title="Вебхуки задерживаются",
            language="ru",
            body="Разбираемся.",
            started_at=at_moscow_minute(0),
            display_time_zone="Europe/Moscow",
        ),
        actor=admin,
    )


@pytest.fixture
def moscow_incident(admin):
    """Written in Moscow time: entries at 00:00, 00:20 and 00:40, resolved at 00:50."""
    incident = declare_in_moscow(admin)
    for minute, status in ((20, "identified"), (40, "monitoring")):
        post_update(
            incident,
            PostUpdate(
                status=status,
                body={"ru": f"Запись {minute}."},
                language="ru",
                display_at=at_moscow_minute(minute),
            ),
            actor=admin,
        )
    resolve_incident(
        incident,
        ResolveIncident(body={"ru": "Исправлено."}, language="ru", display_at=at_moscow_minute(50)),
        actor=admin,
    )
    incident.refresh_from_db()
    return incident


@pytest.mark.parametrize("language", PREFIXES)
def test_an_incident_written_in_moscow_time_shows_its_entries_on_their_own_day(
    client, moscow_incident, language
):
    page = client.get(f"{PREFIXES[language]}/incidents/{moscow_incident.slug}/").content.decode()
    assert FIRST[language] in page and LAST[language] in page
    for minute in (0, 20, 40, 50):
        assert f":{minute:02d} GMT+03:00</time>" in page
    assert "23:00" not in page and "23:50" not in page
    assert f"{MOSCOW_NAME[language]} (Europe/Moscow)" in page
    # The page-wide footer sentence would name Oslo; the incident's own note replaces it.
    assert "Europe/Oslo" not in page


# The history row's window within one day, as each language joins two times (CLDR's fallback
# interval pattern, thin spaces in English and Spanish): the date once, the offset once.
WINDOW = {
    "en": ("Sep 12, 2025, 00:00", "\u2009–\u2009", "00:50 GMT+03:00"),
    "ru": ("12 сент. 2025\u202fг., 00:00", " — ", "00:50 GMT+03:00"),
    "es": ("12 sept 2025, 0:00", "\u2009–\u2009", "0:50 GMT+03:00"),
    "nb": ("12. sep. 2025, 00:00", "–", "00:50 GMT+03:00"),
}


@pytest.mark.parametrize("language", PREFIXES)
def test_the_history_row_shows_the_incident_in_its_zone(client, moscow_incident, language):
    history = client.get(f"{PREFIXES[language]}/history/").content.decode()
    start, joined_by, end = WINDOW[language]
    assert (
        f'>{start}</time>{joined_by}<time datetime="2025-09-11T21:50:00Z" data-local="datetime">{end}</time>'
        in history
    )
    assert "23:50" not in history


@pytest.mark.parametrize("language", PREFIXES)
def test_feed_entries_tell_the_time_in_the_incidents_zone_and_name_it(client, moscow_incident, language):
    for kind in ("atom", "rss"):
        parsed = feedparser.parse(client.get(f"{PREFIXES[language]}/history.{kind}").content)
        summaries = [entry.summary for entry in parsed.entries]
        assert len(summaries) == 4, kind
        assert f"<p>{LAST[language]} ({MOSCOW_NAME[language]})</p>" in summaries[0], kind
        assert f"<p>{FIRST[language]} ({MOSCOW_NAME[language]})</p>" in summaries[-1], kind
        assert not any("23:" in summary for summary in summaries), kind


def test_feed_timestamps_stay_machine_instants(client, moscow_incident):
    parsed = feedparser.parse(client.get("/history.atom").content)
    assert parsed.entries[0].published_parsed[:5] == (2025, 9, 11, 21, 50)


@pytest.mark.parametrize("language", PREFIXES)
def test_the_mail_tells_the_time_in_the_incidents_zone(admin, language):
    confirm_subscription(
        subscribe(email=f"{language}@example.com", language=language, send_mail=False).subscriber
    )
    declare_in_moscow(admin)
    outbox.deliver_due(seconds=5)
    [message] = mail.outbox
    shown = f"{FIRST[language]} ({MOSCOW_NAME[language]})"
    assert shown in message.body
    assert shown in message.alternatives[0][0]
    assert "23:00" not in message.body


def test_an_incident_written_in_utc_shows_eleven_for_eleven(client, admin):
    incident = declare_incident(
        DeclareIncident(
            title="Queue stuck",
            language="en",
            body="Looking.",
            started_at=dt.datetime(2025, 7, 1, 11, 0, tzinfo=dt.UTC),
            display_time_zone="UTC",
        ),
        actor=admin,
    )
    page = client.get(f"/incidents/{incident.slug}/").content.decode()
    assert "Jul 1, 2025, 11:00 GMT+00:00</time>" in page
    assert "13:00" not in page
    assert "Coordinated Universal Time (UTC)" in page


def test_an_incident_without_a_zone_shows_the_pages(client, admin, settings):
    settings.STATUS_TIME_ZONE = "America/New_York"
    incident = declare_incident(
        DeclareIncident(
            title="Queue stuck",
            language="en",
            body="Looking.",
            started_at=dt.datetime(2025, 7, 1, 11, 0, tzinfo=dt.UTC),
        ),
        actor=admin,
    )
    assert incident.display_time_zone == ""
    page = client.get(f"/incidents/{incident.slug}/").content.decode()
    assert "Jul 1, 2025, 07:00 GMT-04:00</time>" in page
    assert "Eastern Daylight Time (America/New_York)" in page
