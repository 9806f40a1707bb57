"""Times already stored out of bounds (written before the bounds, or by hand in a shell) never
take a page down: each page still renders, showing the bad time as ISO UTC text."""

import datetime as dt
import re
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.utils import timezone

from incidents import formatting
from incidents.lifecycle.commands import WritePostmortem
from incidents.lifecycle.postmortems import publish_postmortem, save_action_item, write_postmortem
from incidents.models import (
    ActionItem,
    Component,
    Incident,
    IncidentUpdate,
    Metric,
    Postmortem,
    Sample,
    StatusPeriod,
)

from .conftest import LANGUAGE_PREFIXES, assert_public_pages_render

LATEST = dt.datetime(9999, 12, 31, 23, 59, 59, tzinfo=dt.UTC)
EARLIEST = dt.datetime(1, 1, 1, tzinfo=dt.UTC)
STORED = [pytest.param(LATEST, id="9999-12-31T23:59:59Z"), pytest.param(EARLIEST, id="0001-01-01")]
STATUSPAGE_DOCUMENTS = (
    "summary",
    "status",
    "components",
    "incidents",
    "incidents/unresolved",
    "scheduled-maintenances",
    "scheduled-maintenances/upcoming",
    "scheduled-maintenances/active",
)


def assert_every_surface_renders(page, admin, *, extra_paths=()):
    incident, maintenance = page["incident"], page["upcoming"]
    paths = (
        f"/incidents/{incident.slug}/",
        f"/incidents/{maintenance.slug}/",
        f"/incidents/{page['resolved'].slug}/",
        f"/components/{page['rest'].slug}/",
        f"/components/{page['webhooks'].slug}/",
        f"/components/{page['rest'].slug}/history.rss",
        *extra_paths,
    )
    assert_public_pages_render(extra_paths=paths)
    client = Client()
    for document in STATUSPAGE_DOCUMENTS:
        response = client.get(f"/api/v2/{document}.json")
        assert response.status_code == 200, (document, response.status_code)
    editor = Client()
    editor.force_login(admin)
    for path in (
        "/editor/",
        f"/editor/incidents/{incident.pk}/",
        f"/editor/incidents/{page['draft'].pk}/",
        f"/editor/incidents/{maintenance.pk}/",
        "/editor/action-items/",
        "/editor/audit/",
        "/editor/components/",
        f"/editor/components/{page['rest'].pk}/",
    ):
        response = editor.get(path)
        assert response.status_code == 200, (path, response.status_code)


@pytest.mark.parametrize("stored", STORED)
def test_an_incident_started_out_of_range_leaves_every_page_up(page, admin, stored):
    Incident.objects.filter(pk__in=[page["incident"].pk, page["draft"].pk]).update(started_at=stored)
    assert_every_surface_renders(page, admin)


@pytest.mark.parametrize("stored", STORED)
def test_an_update_shown_out_of_range_leaves_every_page_up(page, admin, stored):
    IncidentUpdate.objects.filter(incident__in=[page["incident"], page["resolved"]]).update(display_at=stored)
    Incident.objects.filter(pk=page["resolved"].pk).update(resolved_at=stored)
    assert_every_surface_renders(page, admin)


@pytest.mark.parametrize("stored", STORED)
def test_a_maintenance_window_out_of_range_leaves_every_page_up(page, admin, stored):
    Incident.objects.filter(pk=page["upcoming"].pk).update(
        scheduled_for=stored, scheduled_until=stored, started_at=stored
    )
    assert_every_surface_renders(page, admin)


def test_a_maintenance_window_without_an_end_shows_its_start_and_leaves_every_page_up(page, admin):
    # A Statuspage import may bring a scheduled maintenance with no scheduled_until.
    maintenance = page["upcoming"]
    Incident.objects.filter(pk=maintenance.pk).update(scheduled_until=None)
    assert_every_surface_renders(page, admin)
    line = (
        Client().get("/").content.decode().split('class="maintenance-line"', 1)[1].split("</summary>", 1)[0]
    )
    start = maintenance.scheduled_for.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert f'<span class="window"><time datetime="{start}"' in line


@pytest.mark.parametrize(
    "stored", [dt.date(1, 1, 1), dt.date(9999, 12, 31)], ids=["0001-01-01", "9999-12-31"]
)
def test_a_component_counted_from_out_of_range_leaves_the_uptime_page_up(page, admin, stored):
    Component.objects.filter(pk__in=[page["rest"].pk, page["webhooks"].pk]).update(start_date=stored)
    assert_every_surface_renders(page, admin)


@pytest.mark.parametrize("stored", STORED)
def test_a_sample_measured_out_of_range_leaves_every_page_up(page, admin, stored):
    Sample.objects.filter(metric=page["metric"]).update(at=stored)
    Metric.objects.filter(pk=page["metric"].pk).update(latest_at=stored)
    assert_every_surface_renders(page, admin)


@pytest.mark.parametrize("stored", STORED)
def test_a_postmortem_published_out_of_range_leaves_every_page_up(page, admin, stored):
    resolved = page["resolved"]
    postmortem = write_postmortem(
        resolved, WritePostmortem(language="en", sections={"summary": "It broke."}), actor=admin
    )
    publish_postmortem(postmortem, actor=admin)
    item = save_action_item(
        ActionItem(postmortem=postmortem, title={"en": "Add alerts"}, due_date=dt.date(2027, 1, 1)),
        actor=admin,
    )
    Postmortem.objects.filter(pk=postmortem.pk).update(published_at=stored)
    ActionItem.objects.filter(pk=item.pk).update(due_date=stored.date(), completed_at=stored)
    assert_every_surface_renders(page, admin)


@pytest.mark.parametrize("stored", STORED)
def test_a_time_out_of_range_is_shown_as_utc_text_in_every_language(stored):
    for prefix in LANGUAGE_PREFIXES:
        language = prefix.strip("/") or "en"
        text = formatting.format_datetime(stored, language)
        assert text == stored.isoformat(timespec="minutes").replace("+00:00", "Z"), text


@pytest.mark.parametrize(
    ("stored", "zone", "first"),
    [
        # 1 January 1970, 00:00 UTC, is still December 1969 in New York.
        pytest.param(EARLIEST, "America/New_York", "1969-12", id="0001-01-01"),
        pytest.param(LATEST, "Europe/Oslo", "this month", id="9999-12-31T23:59:59Z"),
    ],
)
def test_a_time_stored_out_of_range_bounds_the_month_lists_and_leaves_the_pages_up(
    page, settings, stored, zone, first
):
    """The history's month index and the uptime page's month choices begin at the first record,
    held between the earliest time the platform accepts (1970) and now. From year 1 they listed
    24,000 months (a page of megabytes, seconds to render); year 1 west of UTC and year 9999
    east of it failed the page."""
    settings.STATUS_TIME_ZONE = zone
    Incident.objects.filter(pk=page["resolved"].pk).update(started_at=stored)
    StatusPeriod.objects.update(started_at=stored)
    client = Client()
    history = client.get("/history/")
    uptime = client.get("/uptime/")
    assert (history.status_code, uptime.status_code) == (200, 200)
    history_months = set(re.findall(r'href="\?month=(\d{4}-\d{2})"', history.content.decode()))
    uptime_months = set(re.findall(r'<option value="(\d{4}-\d{2})"', uptime.content.decode()))
    this_month = timezone.now().astimezone(ZoneInfo(zone)).strftime("%Y-%m")
    years = dt.datetime.now(dt.UTC).year - 1970 + 1
    for months in (history_months, uptime_months):
        assert min(months) == (this_month if first == "this month" else first), min(months)
        assert max(months) == this_month and len(months) <= years * 12 + 1
