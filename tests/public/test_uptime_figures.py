"""The uptime page's figures as a visitor reads them: two decimals, never a full 100 % after time
down, no "0 seconds" for a month without any, and a record of the past weighed over its whole
month."""

import datetime as dt
import re

import pytest
import time_machine
from rest_framework.test import APIClient

from incidents.models import Component, TokenScope
from incidents.services.api_tokens import issue_token
from incidents.services.components import save_component, set_component_status

pytestmark = pytest.mark.django_db

RECORD_START = dt.datetime(2026, 1, 10, 8, 0, tzinfo=dt.UTC)
RECORD_LENGTH = dt.timedelta(hours=31, minutes=12)


@pytest.fixture
def mail(admin):
    """Measured since 1 March 2026, the month the page opens on."""
    with time_machine.travel(dt.datetime(2026, 3, 1, tzinfo=dt.UTC)):
        component = save_component(Component(slug="mail", name={"en": "Mail", "ru": "Почта"}), actor=admin)
    return component


def enter_record(admin, component: Component) -> None:
    """A January outage of 31 h 12 min, entered months later as its author would."""
    _token, secret = issue_token(admin, name="history", scope=TokenScope.READ_WRITE, actor=admin)
    writer = APIClient()
    writer.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    declared = writer.post(
        "/api/v1/incidents/",
        {
            "title": "Mail queued",
            "language": "en",
            "body": "Outgoing mail was queued.",
            "impact": "major",
            "started_at": RECORD_START.isoformat(),
            "components": [{"component": component.public_id, "status": "major_outage"}],
            "backfilled": True,
        },
        format="json",
    )
    assert declared.status_code == 201, declared.content
    resolved = writer.post(
        f"/api/v1/incidents/{declared.json()['id']}/resolve/",
        {
            "language": "en",
            "body": "Mail flows again.",
            "display_at": (RECORD_START + RECORD_LENGTH).isoformat(),
        },
        format="json",
    )
    assert resolved.status_code == 200, resolved.content


def cells(page: str) -> list[str]:
    """The row's month cells as text, oldest month first."""
    row = page[page.index('<th scope="row">') :]
    return [re.sub(r"<[^>]+>", " ", cell).split() for cell in re.findall(r"<td>(.*?)</td>", row)]


def test_a_record_weighs_on_its_whole_month_with_its_downtime_to_the_minute(client, admin, mail):
    enter_record(admin, mail)

    page = client.get("/uptime/").content.decode()

    january, february, march = (" ".join(words) for words in cells(page))
    assert january == "January 2026 95.81 % down 1 day, 7 hours, and 12 minutes"  # 1 - 31.2 h / 744 h
    assert february == "February 2026 100.00 %"  # after the record, nothing recorded: operational
    assert march == "March 2026 100.00 %"
    assert "based on the incidents recorded for each component, past ones entered as records included" in page


def test_the_downtime_is_written_in_the_pages_language(client, admin, mail):
    enter_record(admin, mail)

    page = client.get("/ru/uptime/").content.decode()

    assert "95,81" in page and "1 день, 7 часов и 12 минут" in page


def test_a_month_with_seconds_of_downtime_never_reads_100_percent(client, admin, mail):
    with time_machine.travel(dt.datetime(2026, 3, 5, 9, 0, tzinfo=dt.UTC)):
        set_component_status(mail, status="major_outage", actor=admin)
    with time_machine.travel(dt.datetime(2026, 3, 5, 9, 0, 20, tzinfo=dt.UTC)):
        set_component_status(mail, status="operational", actor=admin)

    page = client.get("/uptime/").content.decode()

    march = " ".join(cells(page)[-1])
    assert march == "March 2026 99.99 % down 20 seconds"
    assert "100.00" not in march


def test_months_without_downtime_say_no_zero_durations_and_before_the_first_record_no_data(client, mail):
    page = client.get("/uptime/").content.decode()

    january, february, march = (" ".join(words) for words in cells(page))
    assert january == "January 2026 no data" and february == "February 2026 no data"
    assert march == "March 2026 100.00 %"
    assert "0 seconds" not in page and "0 minutes" not in page


def test_the_overview_never_says_100_percent_over_90_days_with_seconds_down(client, admin, mail):
    with time_machine.travel(dt.datetime(2026, 3, 5, 9, 0, tzinfo=dt.UTC)):
        set_component_status(mail, status="major_outage", actor=admin)
    with time_machine.travel(dt.datetime(2026, 3, 5, 9, 0, 20, tzinfo=dt.UTC)):
        set_component_status(mail, status="operational", actor=admin)

    page = client.get("/").content.decode()

    assert "Mail, last 90 days: 99.99 % uptime" in page
    assert "100.00 %" not in page
