"""The overview lists the last 15 days under the components, as visitors know from status pages:
each day in the status page's zone with the incidents begun on it, or "No incidents reported"."""

import datetime as dt
import re

import pytest

from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident

from .conftest import record_incident

pytestmark = pytest.mark.django_db

UTC = dt.UTC
PREFIXES = {"en": "", "ru": "/ru", "es": "/es", "nb": "/nb"}
# The clock stands at 10 March 2026, 13:00 in Oslo; each day as its language writes it.
TENTH, NINTH, SEVENTH = (
    {"en": "Mar 10, 2026", "ru": "10 мар. 2026\u202fг.", "es": "10 mar 2026", "nb": "10. mars 2026"},
    {"en": "Mar 9, 2026", "ru": "9 мар. 2026\u202fг.", "es": "9 mar 2026", "nb": "9. mars 2026"},
    {"en": "Mar 7, 2026", "ru": "7 мар. 2026\u202fг.", "es": "7 mar 2026", "nb": "7. mars 2026"},
)
QUIET = {
    "en": "No incidents reported.",
    "ru": "Об инцидентах не сообщалось.",
    "es": "No se han notificado incidentes.",
    "nb": "Ingen hendelser rapportert.",
}
FORTY_MINUTES = dt.timedelta(minutes=40)


def window(start: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    return start, start + FORTY_MINUTES


@pytest.fixture
def events(site, admin):
    """The site's incidents (7 March, one open today, maintenance upcoming) and four more."""
    after_midnight = dt.datetime(2026, 3, 8, 23, 30, tzinfo=UTC)  # 00:30 on the 9th in Oslo
    return {
        **site,
        "after_midnight": record_incident(admin, "Logins failed", window(after_midnight)),
        "same_day": record_incident(
            admin, "Exports slow", window(dt.datetime(2026, 3, 9, 15, 0, tzinfo=UTC))
        ),
        "too_old": record_incident(
            admin, "Queue stalled", window(dt.datetime(2026, 2, 20, 9, 0, tzinfo=UTC))
        ),
        "draft": declare_incident(
            DeclareIncident(
                title="Draft only",
                language="en",
                body="Investigating.",
                started_at=dt.datetime(2026, 3, 9, 10, 0, tzinfo=UTC),
                publish=False,
            ),
            actor=admin,
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
    assert list(days)[:2] == [TENTH[language], NINTH[language]]
    assert events["current"].slug in days[TENTH[language]]  # open, and listed under its day too
    ninth = days[NINTH[language]]
    # Newest first; the one begun at 00:30 Oslo time counts on the 9th, not on UTC's 8th.
    assert ninth.index(events["same_day"].slug) < ninth.index(events["after_midnight"].slug)
    assert 'class="duration"' in ninth
    assert events["past"].slug in days[SEVENTH[language]]
    section = "".join(days.values())
    for left_out in ("too_old", "draft", "upcoming"):
        assert events[left_out].slug not in section


@pytest.mark.parametrize("language", QUIET)
def test_a_quiet_day_says_so_in_the_page_language(client, events, language):
    days = past_days(client.get(f"{PREFIXES[language]}/").content.decode())

    quiet = [text for text in days.values() if "history-event" not in text]
    assert len(quiet) == 12
    assert all(QUIET[language] in text for text in quiet)
