"""The uptime page goes back month by month to the first data, and judges each month against a
component's uptime target."""

import datetime as dt
import re
from decimal import Decimal

import pytest
import time_machine

from incidents.models import Component
from incidents.services.components import save_component, set_component_status

from .conftest import NOW

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(admin):
    """Watched since September 2025; 7 h 12 min of major outage in February 2026."""
    with time_machine.travel(dt.datetime(2025, 9, 1, tzinfo=dt.UTC)):
        component = save_component(
            Component(slug="api", name={"en": "API", "ru": "API-шлюз"}, uptime_target=Decimal("99.9")),
            actor=admin,
        )
    for when, status in [
        (dt.datetime(2026, 2, 10, 8, tzinfo=dt.UTC), "major_outage"),
        (dt.datetime(2026, 2, 10, 15, 12, tzinfo=dt.UTC), "operational"),
    ]:
        with time_machine.travel(when):
            set_component_status(component, status=status, actor=admin)
    with time_machine.travel(NOW):
        yield component


def columns(page: str) -> list[str]:
    head = page[page.index("<thead>") : page.index("</thead>")]
    return re.findall(r'<th scope="col">([^<]+)</th>', head)[1:]


def test_the_latest_three_months_link_to_older_ones(client, api):
    page = client.get("/uptime/").content.decode()
    assert columns(page) == ["January 2026", "February 2026", "March 2026"]
    assert 'rel="next" href="?month=2025-12">Older, to December 2025' in page
    assert 'rel="prev"' not in page


def test_months_go_back_to_the_first_data_and_no_further(client, api):
    december = client.get("/uptime/?month=2025-12").content.decode()
    assert columns(december) == ["October 2025", "November 2025", "December 2025"]
    assert 'href="?month=2025-11">Older, to November 2025' in december  # the first window
    assert 'rel="prev" href="?month=2026-03">Newer, to March 2026' not in december
    assert 'href="?">Newer, to March 2026' in december
    first = client.get("/uptime/?month=2025-11").content.decode()
    assert columns(first) == ["September 2025", "October 2025", "November 2025"]
    assert "Older" not in first
    options = re.findall(r'<option value="([0-9-]+)"', first)
    assert options[0] == "2026-03" and options[-1] == "2025-09" and len(options) == 7


def test_a_month_with_a_target_says_met_or_missed(client, api):
    page = client.get("/uptime/").content.decode()
    row = page[page.index('<th scope="row">') :]
    january, february, march = re.findall(r"<td>.*?</td>", row)
    assert "target 99.90 % — met</span>" in january
    assert "verdict-missed" in february and "target 99.90 % — missed</span>" in february
    assert "met so far" in march
    assert '<small class="target">target 99.90 %</small>' in row


def test_a_component_without_a_target_says_no_verdict(client, api, admin):
    api.uptime_target = None
    save_component(api, actor=admin)
    page = client.get("/uptime/").content.decode()
    assert "verdict" not in page and "target 99" not in page


def test_the_target_is_written_in_the_pages_language(client, api):
    page = client.get("/ru/uptime/").content.decode()
    assert "99,90" in page


@pytest.mark.parametrize("value", ["2026-13", "1999-01", "2026-04", "march", "2025-08"])
def test_a_month_without_uptime_is_said_and_the_latest_shown(client, api, value):
    response = client.get("/uptime/", {"month": value})
    assert response.status_code == 200
    page = response.content.decode()
    assert "There is no uptime for that month" in page
    assert columns(page) == ["January 2026", "February 2026", "March 2026"]


def test_on_a_phone_each_cell_names_its_month(client, api):
    page = client.get("/uptime/").content.decode()
    assert '<span class="cell-month" aria-hidden="true">February 2026</span>' in page
