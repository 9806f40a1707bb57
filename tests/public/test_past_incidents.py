"""The overview lists the last 15 days under the components, as visitors know from status pages:
each day in the status page's zone with the incidents begun on it, or "No incidents reported"."""

import datetime as dt
import re

import pytest

from incidents.services.incidents import declare_incident, resolve_incident

pytestmark = pytest.mark.django_db

UTC = dt.UTC
PREFIXES = {"en": "", "ru": "/ru", "es": "/es", "nb": "/nb"}
# 9 March 2026 (the clock stands at 10 March, 13:00 in Oslo), as each language writes it.
NINTH_OF_MARCH = {"en": "Mar 9, 2026", "ru": "9 мар. 2026\u202fг.", "es": "9 mar 2026", "nb": "9. mars 2026"}
QUIET = {
    "en": "No incidents reported.",
    "ru": "Об инцидентах не сообщалось.",
    "es": "No se han notificado incidentes.",
    "nb": "Ingen hendelser rapportert.",
}


def record(admin, title: str, started_at: dt.datetime, **options):
    incident = declare_incident(
        title=title, language="en", body="Investigating.", started_at=started_at, actor=admin, **options
    )
    if incident.published_at:
        resolve_incident(
            incident,
            body={"en": "Resolved."},
            language="en",
            display_at=started_at + dt.timedelta(minutes=40),
            actor=admin,
        )
    return incident


@pytest.fixture
def events(admin):
    return {
        # 00:30 on 9 March in Oslo, still 8 March in UTC.
        "after_midnight": record(admin, "Logins failed", dt.datetime(2026, 3, 8, 23, 30, tzinfo=UTC)),
        "same_day": record(admin, "Exports slow", dt.datetime(2026, 3, 9, 15, 0, tzinfo=UTC)),
        "too_old": record(admin, "Queue stalled", dt.datetime(2026, 2, 20, 9, 0, tzinfo=UTC)),
        "draft": record(admin, "Draft only", dt.datetime(2026, 3, 9, 10, 0, tzinfo=UTC), publish=False),
        "upcoming": declare_incident(
            title="Database upgrade",
            language="en",
            body="We will upgrade the database.",
            kind="maintenance",
            impact="none",
            actor=admin,
            scheduled_for=dt.datetime(2026, 3, 12, 8, 0, tzinfo=UTC),
            scheduled_until=dt.datetime(2026, 3, 12, 10, 0, tzinfo=UTC),
        ),
    }


def past_days(page: str) -> dict[str, str]:
    """The past-incidents section of the overview: each day's heading with the text under it."""
    section = page[page.index('id="past-incidents"') :]
    section = section[: section.index("</section>")]
    parts = re.split(r'<h3 class="past-day">([^<]+)</h3>', section)[1:]
    return dict(zip(parts[::2], parts[1::2], strict=True))


@pytest.mark.parametrize("language", PREFIXES)
def test_the_last_15_days_are_listed_newest_first_each_with_what_began_on_it(client, events, language):
    days = past_days(client.get(f"{PREFIXES[language]}/").content.decode())

    assert len(days) == 15
    assert list(days).index(NINTH_OF_MARCH[language]) == 1  # today, then yesterday
    ninth = days[NINTH_OF_MARCH[language]]
    # Newest first; the one begun at 00:30 Oslo time counts on the 9th, not on UTC's 8th.
    assert ninth.index(events["same_day"].slug) < ninth.index(events["after_midnight"].slug)
    assert 'class="duration"' in ninth
    section = "".join(days.values())
    for left_out in ("too_old", "draft", "upcoming"):
        assert events[left_out].slug not in section


@pytest.mark.parametrize("language", QUIET)
def test_a_quiet_day_says_so_in_the_page_language(client, events, language):
    days = past_days(client.get(f"{PREFIXES[language]}/").content.decode())

    quiet = [text for text in days.values() if "history-event" not in text]
    assert len(quiet) == 14
    assert all(QUIET[language] in text for text in quiet)
