"""One time-zone story on the public pages: every page that shows a time offers the "my time
zone" toggle (hidden until local-time.js shows it, so without JavaScript each time stays in the
zone it names), every time names the zone it is in, and the page's own zone is named once, as
the page's, without contradicting an incident written in another zone."""

import datetime as dt
import re

import pytest

from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident

pytestmark = [pytest.mark.django_db, pytest.mark.site_once]

TIME = re.compile(r'<time datetime="([^"]+)" data-local="[a-z]+">([^<]*)</time>')
ZONE_STAMP = re.compile(r"(\d{1,2}):(\d\d) GMT(?:([+-])(\d\d):(\d\d))?$")
# A window's two ends: the start alone may leave its zone to the end ("08:25 – 14:10 GMT+01:00").
RANGE_JOIN = re.compile(r'^\s*[–-]\s*<time datetime="[^"]+" data-local="[a-z]+">([^<]*)</time>')


def pages(site) -> dict[str, str]:
    return {
        "overview": "/",
        "component": "/components/webhook-delivery/",
        "incident with its postmortem": f"/incidents/{site['past'].slug}/",
        "open incident": f"/incidents/{site['current'].slug}/",
        "maintenance event": f"/incidents/{site['upcoming'].slug}/",
        "history": "/history/",
        "maintenance": "/maintenance/",
    }


def in_moscow(admin):
    """An incident written in Moscow time, at 14:05 there (11:05 UTC, 12:05 in Oslo)."""
    return declare_incident(
        DeclareIncident(
            title="Вебхуки задерживаются",
            language="ru",
            body="Разбираемся.",
            started_at=dt.datetime(2026, 3, 9, 11, 5, tzinfo=dt.UTC),
            display_time_zone="Europe/Moscow",
        ),
        actor=admin,
    )


def stamp_matches(machine: str, shown: str) -> bool:
    """Whether "14:05 GMT+03:00" is the clock time of `machine` (UTC) in the zone it names."""
    found = ZONE_STAMP.search(shown)
    if not found:
        return False
    hour, minute, sign, offset_hours, offset_minutes = found.groups()
    offset = dt.timedelta(hours=int(offset_hours or 0), minutes=int(offset_minutes or 0))
    at = dt.datetime.fromisoformat(machine) + (offset if sign != "-" else -offset)
    return (at.hour, at.minute) == (int(hour), int(minute))


@pytest.mark.parametrize(
    "name",
    [
        "overview",
        "component",
        "incident with its postmortem",
        "open incident",
        "maintenance event",
        "history",
        "maintenance",
    ],
)
def test_every_page_that_shows_a_time_offers_the_toggle_with_its_state(client, site, admin, name):
    in_moscow(admin)
    page = client.get(pages(site)[name]).content.decode()

    assert TIME.search(page), f"{name} shows no time"
    assert page.count('id="local-time-toggle"') == 1
    button = re.search(r'<button type="button" id="local-time-toggle"[^>]*>([^<]*)</button>', page)
    assert button and 'aria-pressed="false"' in button.group(0)
    assert " hidden" in button.group(0)  # shown by the script: without it the times stay as served
    assert button.group(1) == "Show times in my time zone"
    state = re.search(r'<span id="time-display-state"[^>]*>([^<]*)</span>', page)
    assert state and state.group(1) == "Times: as published, each with its zone"
    assert 'data-label-local="Times: your zone"' in state.group(0)
    assert re.search(r'<script src="[^"]*/js/local-time[.\w]*\.js" defer>', page)


def test_pages_without_a_time_have_no_toggle(client, site):
    page = client.get("/uptime/").content.decode()

    assert not TIME.search(page)
    assert 'id="local-time-toggle"' not in page


@pytest.mark.parametrize(
    "name",
    [
        "overview",
        "component",
        "incident with its postmortem",
        "open incident",
        "maintenance event",
        "history",
        "maintenance",
    ],
)
def test_every_time_shown_names_the_zone_it_is_in(client, site, admin, name):
    in_moscow(admin)
    page = client.get(pages(site)[name]).content.decode()

    times = list(TIME.finditer(page))
    assert times
    # A clock time outside data-local would neither name its zone here nor follow the toggle.
    others = re.findall(r"<time (?![^>]*data-local)[^>]*>([^<]*)</time>", page)
    assert [text for text in others if re.search(r"\d:\d\d", text)] == []
    for time in times:
        machine, shown = time.groups()
        if not ZONE_STAMP.search(shown):
            end = RANGE_JOIN.match(page[time.end() :])
            assert end, f"{shown!r} on {name} names no zone"
            zone = ZONE_STAMP.search(end.group(1))
            assert zone, f"{shown!r} – {end.group(1)!r} on {name} names no zone"
            shown = f"{shown} {zone.group(0).split(' ', 1)[1]}"
        assert stamp_matches(machine, shown), f"{shown!r} on {name} is not {machine} in the zone it names"


def test_the_page_names_its_own_zone_once_and_an_incident_keeps_its_own(client, site, admin):
    moscow = in_moscow(admin)

    history = client.get("/history/").content.decode()
    row = history[history.index("Вебхуки задерживаются") :]
    assert ">Mar 9, 2026, 14:05 GMT+03:00</time>" in row[: row.index("</li>")]
    assert history.count("time zone is") == 1
    assert (
        "This page&#x27;s time zone is Central European Standard Time (Europe/Oslo). An incident "
        "reported in another zone shows its times in that zone, named beside each time." in history
    )
    assert "Times are shown in the" not in history

    incident = client.get(f"/incidents/{moscow.slug}/").content.decode()
    assert "Times in Moscow Standard Time (Europe/Moscow)." in incident
    assert "This page&#x27;s time zone" not in incident  # the incident names its own zone instead
