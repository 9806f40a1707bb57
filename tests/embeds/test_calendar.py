"""The maintenance calendar: /maintenance.ics and /components/<slug>/maintenance.ics."""

import datetime as dt

import icalendar
import pytest
import vobject
from django.conf import settings

from incidents.lifecycle.commands import PostUpdate, ScheduleMaintenance
from incidents.lifecycle.opening import schedule_maintenance
from incidents.lifecycle.updates import post_update
from incidents.models import ComponentStatus


def events(response) -> list:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    return icalendar.Calendar.from_ical(response.content).walk("VEVENT")


@pytest.fixture
def planned(site, admin):
    """A second window, on the email component only, planned for next week."""
    start = dt.datetime(2026, 3, 17, 22, 0, tzinfo=dt.UTC)
    return schedule_maintenance(
        ScheduleMaintenance(
            title="Mail server move",
            language="en",
            body="Mail will be **queued** for up to ten minutes.",
            component_statuses=dict.fromkeys([site["email"]], ComponentStatus.UNDER_MAINTENANCE),
            scheduled_for=start,
            scheduled_until=start + dt.timedelta(hours=1),
        ),
        actor=admin,
    )


def test_calendar_parses_in_two_independent_libraries(client, planned):
    body = client.get("/maintenance.ics").content

    by_icalendar = icalendar.Calendar.from_ical(body)
    by_vobject = vobject.readOne(body.decode())

    assert [str(e["summary"]) for e in by_icalendar.walk("VEVENT")] == [
        "Database upgrade",
        "Mail server move",
    ]
    assert [e.summary.value for e in by_vobject.vevent_list] == ["Database upgrade", "Mail server move"]
    move = by_vobject.vevent_list[1]
    assert move.dtstart.value == dt.datetime(2026, 3, 17, 22, 0, tzinfo=dt.UTC)
    assert move.dtend.value == dt.datetime(2026, 3, 17, 23, 0, tzinfo=dt.UTC)
    assert move.url.value == f"{settings.SITE_URL}/incidents/{planned.slug}/"
    assert "queued" in move.description.value


def test_times_are_written_in_utc(client, planned):
    text = client.get("/maintenance.ics").content.decode()

    assert "DTSTART:20260317T220000Z" in text
    assert "DTEND:20260317T230000Z" in text
    assert "DTSTAMP:" in text


def test_uids_stay_the_same_across_requests_and_sequence_rises_on_change(client, planned, admin):
    first = {str(e["uid"]): e for e in events(client.get("/maintenance.ics"))}
    again = client.get("/maintenance.ics")
    assert set(first) == {str(e["uid"]) for e in events(again)}
    assert again.content == client.get("/maintenance.ics").content

    post_update(
        planned, PostUpdate(status="scheduled", body={"en": "Moved by a day."}, language="en"), actor=admin
    )

    changed = {str(e["uid"]): e for e in events(client.get("/maintenance.ics"))}
    assert set(changed) == set(first)
    uid = next(u for u, e in first.items() if str(e["summary"]) == "Mail server move")
    assert int(changed[uid]["sequence"]) > int(first[uid]["sequence"])
    assert changed[uid]["last-modified"].dt >= first[uid]["last-modified"].dt


def test_component_calendar_holds_only_that_components_windows(client, planned):
    email = events(client.get("/components/email-delivery/maintenance.ics"))
    api = events(client.get("/components/public-api/maintenance.ics"))

    assert [str(e["summary"]) for e in email] == ["Mail server move"]
    assert api == []


def test_unknown_component_calendar_is_a_404(client, site):
    assert client.get("/components/no-such-thing/maintenance.ics").status_code == 404


def test_calendar_language_is_the_lang_parameter(client, site, admin):
    site["upcoming"].title = {"en": "Database upgrade", "ru": "Обновление базы данных"}
    site["upcoming"].save(update_fields=["title"])

    (event,) = events(client.get("/maintenance.ics?lang=ru"))

    assert str(event["summary"]) == "Обновление базы данных"
    assert str(event["url"]).endswith(f"/ru/incidents/{site['upcoming'].slug}/")
    assert client.get("/maintenance.ics?lang=zz").status_code == 200


def test_drafts_and_incidents_stay_out(client, site, admin):
    start = dt.datetime(2026, 3, 20, 22, 0, tzinfo=dt.UTC)
    schedule_maintenance(
        ScheduleMaintenance(
            title="Secret plan",
            language="en",
            body="Not yet.",
            component_statuses=dict.fromkeys([site["api"]], ComponentStatus.UNDER_MAINTENANCE),
            scheduled_for=start,
            scheduled_until=start + dt.timedelta(hours=1),
            publish=False,
        ),
        actor=admin,
    )

    summaries = [str(e["summary"]) for e in events(client.get("/maintenance.ics"))]

    assert summaries == ["Database upgrade"]


def test_pages_link_to_the_calendar(client, site):
    overview = client.get("/").content.decode()
    maintenance = client.get("/maintenance/").content.decode()

    assert '<link rel="alternate" type="text/calendar"' in overview
    assert 'href="/maintenance.ics"' in overview
    assert 'href="/maintenance.ics' in maintenance


def test_component_page_names_its_own_calendar(client, site):
    page = client.get("/components/email-delivery/").content.decode()

    assert 'type="text/calendar"' in page
    assert 'href="/components/email-delivery/maintenance.ics"' in page
