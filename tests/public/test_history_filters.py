"""The history page by month and filtered by component, impact and dates: every bad value is
said next to its field and the page still lists, without that filter."""

import datetime as dt
import re

import pytest
import time_machine

from incidents.lifecycle.commands import DeclareIncident, ResolveIncident
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import resolve_incident

pytestmark = [pytest.mark.django_db, pytest.mark.site_once]


def titles(response) -> list[str]:
    return re.findall(r'<h3 class="event-title"><a href="[^"]+"[^>]*>([^<]+)</a>', response.content.decode())


@pytest.fixture
def older(site, admin):
    """A minor email incident in December 2025, three months before the others."""
    with time_machine.travel(dt.datetime(2025, 12, 15, 9, 0, tzinfo=dt.UTC)):
        incident = declare_incident(
            DeclareIncident(
                title="Slow email",
                language="en",
                body="Mail is slow.",
                impact="minor",
                component_statuses={site["email"]: "degraded_performance"},
            ),
            actor=admin,
        )
        resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=admin)
    return incident


def test_each_row_says_time_title_impact_and_components_apart(client, site):
    page = client.get("/history/").content.decode()
    row = next(item for item in page.split('<li class="history-event">') if "Webhooks delayed" in item)
    assert '<span class="impact impact-major">Impact: Major</span>' in row
    assert '<ul class="affected" aria-label="Affected components"><li>Webhook delivery</li></ul>' in page
    assert "GMT</time>Webhook" not in page and "</time><ul" not in page


def test_upcoming_maintenance_is_on_the_maintenance_page_not_in_the_history(client, site):
    assert "Database upgrade" not in client.get("/history/").content.decode()
    assert "Database upgrade" not in client.get("/history/?impact=maintenance").content.decode()
    assert "Database upgrade" in client.get("/maintenance/").content.decode()


def test_months_go_back_to_the_first_incident_newest_first(client, site, older):
    page = client.get("/history/").content.decode()
    nav = page[page.index('<nav class="history-months"') :]
    nav = nav[: nav.index("</nav>")]
    months = re.findall(r"<a href=\"\?month=([0-9-]+)\"[^>]*>(\w+)", nav)
    assert months == [("2026-03", "Mar"), ("2026-02", "Feb"), ("2026-01", "Jan"), ("2025-12", "Dec")]
    assert "Nov" not in nav  # nothing before the first incident


def test_a_month_shows_only_its_events_and_links_its_neighbours(client, site, older):
    december = client.get("/history/?month=2025-12")
    assert december.status_code == 200
    assert titles(december) == ["Slow email"]
    assert '<a href="?month=2025-12" aria-current="page">' in december.content.decode()
    assert 'rel="prev" href="?month=2026-01">Newer: January 2026' in december.content.decode()
    assert 'rel="next"' not in december.content.decode()  # nothing older
    march = client.get("/history/?month=2026-03")
    assert titles(march) == ["Сбой API", "Webhooks delayed"]
    assert 'rel="next" href="?month=2026-02">Older: February 2026' in march.content.decode()


def test_a_month_with_nothing_says_so(client, site, older):
    page = client.get("/ru/history/?month=2026-01").content.decode()
    assert titles(client.get("/history/?month=2026-01")) == []
    assert "январь 2026" in page.lower()


def test_the_component_filter_lists_only_its_events_and_its_month_counts(client, site, older):
    response = client.get("/history/?component=email-delivery")
    assert titles(response) == ["Slow email"]
    assert '<option value="email-delivery" selected>' in response.content.decode()
    page = response.content.decode()
    assert '<a href="?component=email-delivery&amp;month=2025-12">' in page  # months keep the filter


def test_the_impact_filter_lists_only_that_impact(client, site, older):
    assert titles(client.get("/history/?impact=minor")) == ["Slow email"]
    assert titles(client.get("/history/?impact=critical")) == ["Сбой API"]
    assert titles(client.get("/history/?impact=none")) == []
    assert '<option value="minor" selected>' in client.get("/history/?impact=minor").content.decode()


def test_a_date_range_includes_both_of_its_days(client, site, older):
    assert titles(client.get("/history/?from=2026-03-07&to=2026-03-07")) == ["Webhooks delayed"]
    assert titles(client.get("/history/?from=2026-03-08")) == ["Сбой API"]
    assert titles(client.get("/history/?to=2026-03-06")) == ["Slow email"]
    page = client.get("/history/?from=2026-03-07&to=2026-03-07").content.decode()
    assert 'name="from" value="2026-03-07"' in page


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("component=nope", "component", "There is no component by that name"),
        ("impact=catastrophic", "impact", "Choose an impact from the list"),
        ("from=2026-02-30", "from", "Give a date as YYYY-MM-DD"),
        ("to=yesterday", "to", "Give a date as YYYY-MM-DD"),
        ("from=2026-03-01&to=2025-12-31", "to", "The end date is before the start date"),
        ("month=2026-13", None, "Give a month as YYYY-MM"),
        ("month=1999-01", None, "There is no history for that month"),
        ("month=2027-01", None, "There is no history for that month"),
    ],
)
def test_a_bad_filter_is_named_and_the_page_lists_without_it(client, site, older, query, field, message):
    response = client.get(f"/history/?{query}")
    assert response.status_code == 200
    page = response.content.decode()
    assert message in page
    if field:
        assert f'id="filter-{field}" ' in page and f'aria-describedby="filter-{field}-error"' in page
    assert len(titles(response)) >= 2  # the listing, unfiltered by the bad value


def test_a_bad_value_does_not_drop_the_good_ones(client, site, older):
    response = client.get("/history/?component=email-delivery&impact=bogus")
    assert titles(response) == ["Slow email"]
    assert "Choose an impact from the list" in response.content.decode()


def test_the_filter_form_is_a_plain_get_form(client, site):
    page = client.get("/history/").content.decode()
    form = page[page.index('<form method="get" action="/history/"') :]
    form = form[: form.index("</form>")]
    for name in ("component", "impact", "from", "to"):
        assert f'name="{name}"' in form
    assert 'type="date"' in form and '<button type="submit">' in form


def test_pages_keep_the_filters(client, site, older, settings):
    settings.PUBLIC_HISTORY_PAGE_SIZE = 1
    page = client.get("/history/?from=2026-03-01&to=2026-03-31").content.decode()
    assert 'href="?from=2026-03-01&amp;to=2026-03-31&amp;page=2"' in page
