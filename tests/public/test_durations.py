"""An incident's duration, exact to the minute, in the reader's language: on its page, in the
history, in the feeds, in the resolving mail and in the API; right across midnight, days and DST."""

import datetime as dt

import feedparser
import pytest
import time_machine
import yaml
from django.core import mail
from django.core.management import call_command

from incidents import formatting
from incidents.channels import outbox
from incidents.lifecycle.commands import DeclareIncident, PostUpdate, ResolveIncident
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import post_update, resolve_incident
from incidents.services.subscriptions import confirm_subscription, subscribe

from .conftest import record_incident

pytestmark = pytest.mark.django_db

PREFIXES = {"en": "", "ru": "/ru", "es": "/es", "nb": "/nb"}
# 23:30 to 00:30 Oslo time, 7 to 8 March 2026.
ACROSS_MIDNIGHT = (
    dt.datetime(2026, 3, 7, 22, 30, tzinfo=dt.UTC),
    dt.datetime(2026, 3, 7, 23, 30, tzinfo=dt.UTC),
)
ONE_HOUR = {"en": "1 hr", "ru": "1 ч", "es": "1 h", "nb": "1 t"}
# 23:00 on 5 March to 06:12 on 7 March, Oslo time: 31 hours and 12 minutes over three days.
ACROSS_DAYS = (dt.datetime(2026, 3, 5, 22, 0, tzinfo=dt.UTC), dt.datetime(2026, 3, 7, 5, 12, tzinfo=dt.UTC))
THIRTY_ONE_HOURS = {
    "en": "1 day, 7 hr, 12 min",
    "ru": "1 дн. 7 ч 12 мин",
    "es": "1 d, 7 h, 12 min",
    "nb": "1 d, 7 t, 12 min",
}


@pytest.fixture
def incidents(admin):
    return {
        "midnight": record_incident(admin, "Webhooks stalled", ACROSS_MIDNIGHT, "nb"),
        "days": record_incident(admin, "Очередь застряла", ACROSS_DAYS, "ru"),
    }


@pytest.mark.parametrize("language", PREFIXES)
def test_durations_are_exact_to_the_minute_in_each_language(language):
    assert formatting.format_incident_duration(3600, language) == ONE_HOUR[language]
    assert formatting.format_incident_duration(31 * 3600 + 12 * 60, language) == THIRTY_ONE_HOURS[language]


def test_a_long_incident_is_not_rounded_to_its_largest_unit():
    assert formatting.format_incident_duration(3 * 86400 + 60, "en") == "3 days, 1 min"
    assert formatting.format_incident_duration(45, "en") == "45 sec"


@pytest.mark.parametrize("language", PREFIXES)
def test_the_incident_page_shows_the_duration_across_midnight_and_days(client, incidents, language):
    prefix = PREFIXES[language]
    midnight = client.get(f"{prefix}/incidents/{incidents['midnight'].slug}/").content.decode()
    assert f'<dd class="duration">{ONE_HOUR[language]}</dd>' in midnight
    days = client.get(f"{prefix}/incidents/{incidents['days'].slug}/").content.decode()
    assert f'<dd class="duration">{THIRTY_ONE_HOURS[language]}</dd>' in days


@pytest.mark.parametrize("language", PREFIXES)
def test_history_rows_show_each_duration(client, incidents, language):
    history = client.get(f"{PREFIXES[language]}/history/").content.decode()
    assert f'<span class="duration">{ONE_HOUR[language]}</span>' in history
    assert f'<span class="duration">{THIRTY_ONE_HOURS[language]}</span>' in history


@pytest.mark.parametrize("language", PREFIXES)
def test_feed_entries_carry_the_duration(client, incidents, language):
    for kind in ("atom", "rss"):
        parsed = feedparser.parse(client.get(f"{PREFIXES[language]}/history.{kind}").content)
        summaries = [entry.summary for entry in parsed.entries]
        # The resolving entry tells it; the first, written at the start, has no duration yet.
        assert sum(f": {ONE_HOUR[language]}</p>" in summary for summary in summaries) == 1, kind
        assert sum(f": {THIRTY_ONE_HOURS[language]}</p>" in summary for summary in summaries) == 1, kind


def test_a_feed_entry_of_an_open_incident_says_how_long_it_had_lasted_at_that_update(client, admin):
    incident = declare_incident(
        DeclareIncident(
            title="Slow API",
            language="en",
            body="Investigating.",
            started_at=dt.datetime(2026, 3, 10, 9, 0, tzinfo=dt.UTC),
        ),
        actor=admin,
    )
    post_update(
        incident,
        PostUpdate(
            status="identified",
            body={"en": "Found it."},
            language="en",
            display_at=dt.datetime(2026, 3, 10, 10, 45, tzinfo=dt.UTC),
        ),
        actor=admin,
    )
    summaries = [entry.summary for entry in feedparser.parse(client.get("/history.atom").content).entries]
    assert "<p>Duration: 1 hr, 45 min so far (ongoing)</p>" in summaries[0]


def test_an_open_incident_shows_its_duration_so_far_as_ongoing(client, admin):
    incident = declare_incident(
        DeclareIncident(
            title="Slow API",
            language="en",
            body="Investigating.",
            started_at=dt.datetime(2026, 3, 10, 9, 48, tzinfo=dt.UTC),
        ),
        actor=admin,
    )
    page = client.get(f"/incidents/{incident.slug}/").content.decode()
    assert '<dd class="duration">2 hr, 12 min so far (ongoing)</dd>' in page


def test_an_incident_across_the_october_clock_change_lasted_three_hours(client, admin):
    # 01:30 summer time to 03:30 winter time in Oslo on 25 October 2026: the clock went back an
    # hour between them, so three hours passed, not two.
    oslo = formatting.status_zone()
    started_at = dt.datetime(2026, 10, 25, 1, 30, tzinfo=oslo, fold=0)
    resolved_at = dt.datetime(2026, 10, 25, 3, 30, tzinfo=oslo)
    assert started_at.utcoffset() == dt.timedelta(hours=2) and resolved_at.utcoffset() == dt.timedelta(
        hours=1
    )
    with time_machine.travel(dt.datetime(2026, 10, 26, 12, 0, tzinfo=dt.UTC), tick=True):
        incident = record_incident(admin, "Night job stalled", (started_at, resolved_at))
        page = client.get(f"/incidents/{incident.slug}/").content.decode()
        client.force_login(admin)
        body = client.get(f"/api/v1/incidents/{incident.public_id}/").json()
    assert '<dd class="duration">3 hr</dd>' in page
    assert body["duration_seconds"] == 3 * 3600


def test_the_api_gives_duration_seconds_and_null_while_open(client, admin, incidents):
    open_incident = declare_incident(
        DeclareIncident(title="Slow API", language="en", body="Looking."), actor=admin
    )
    client.force_login(admin)
    midnight = client.get(f"/api/v1/incidents/{incidents['midnight'].public_id}/").json()
    days = client.get(f"/api/v1/incidents/{incidents['days'].public_id}/").json()
    ongoing = client.get(f"/api/v1/incidents/{open_incident.public_id}/").json()
    assert midnight["duration_seconds"] == 3600
    assert days["duration_seconds"] == 31 * 3600 + 12 * 60
    assert ongoing["duration_seconds"] is None


def test_duration_seconds_is_a_read_only_nullable_integer_in_the_schema(tmp_path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(target))
    incident = yaml.safe_load(target.read_text())["components"]["schemas"]["Incident"]
    field = incident["properties"]["duration_seconds"]
    assert field["type"] == "integer" and field["nullable"] is True and field["readOnly"] is True


@pytest.mark.parametrize("language", PREFIXES)
def test_the_resolving_mail_tells_the_duration(admin, language):
    confirm_subscription(
        subscribe(email=f"{language}@example.com", language=language, send_mail=False).subscriber
    )
    incident = declare_incident(
        DeclareIncident(title="Очередь застряла", language="ru", body="Смотрим.", started_at=ACROSS_DAYS[0]),
        actor=admin,
    )
    resolve_incident(
        incident,
        ResolveIncident(body={"ru": "Исправлено."}, language="ru", display_at=ACROSS_DAYS[1]),
        actor=admin,
    )
    outbox.deliver_due(seconds=5)
    assert len(mail.outbox) == 2
    [resolving] = [message for message in mail.outbox if f": {THIRTY_ONE_HOURS[language]}\n" in message.body]
    assert f": {THIRTY_ONE_HOURS[language]}</p>" in resolving.alternatives[0][0]
    [declared] = [message for message in mail.outbox if message is not resolving]
    assert "(ongoing)" not in declared.body  # nothing has lasted yet when it starts
