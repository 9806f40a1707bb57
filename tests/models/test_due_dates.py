import datetime as dt

import pytest
import time_machine
from django.core.exceptions import ValidationError

from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.postmortems import save_action_item
from incidents.models import ActionItem, Postmortem
from incidents.models.postmortems import due_period_end, status_page_today


@pytest.mark.parametrize(
    ("due", "precision", "last_day"),
    [
        (dt.date(2026, 12, 15), "day", dt.date(2026, 12, 15)),
        (dt.date(2026, 11, 1), "month", dt.date(2026, 11, 30)),
        (dt.date(2024, 2, 1), "month", dt.date(2024, 2, 29)),
        (dt.date(2026, 12, 1), "month", dt.date(2026, 12, 31)),
        (dt.date(2025, 1, 1), "quarter", dt.date(2025, 3, 31)),
        (dt.date(2025, 10, 1), "quarter", dt.date(2025, 12, 31)),
        (dt.date(2026, 1, 1), "year", dt.date(2026, 12, 31)),
    ],
)
def test_due_period_ends_on_the_last_day_of_its_period(due, precision, last_day):
    assert due_period_end(due, precision) == last_day


def item(due, precision, state="open"):
    return ActionItem(title={"en": "Add a watchdog"}, due_date=due, due_precision=precision, state=state)


def test_quarter_item_is_overdue_the_day_after_its_quarter_ends():
    q1 = item(dt.date(2025, 1, 1), "quarter")
    assert not q1.is_overdue(today=dt.date(2025, 3, 31))
    assert q1.is_overdue(today=dt.date(2025, 4, 1))


def test_month_and_year_items_are_due_through_their_last_day():
    assert not item(dt.date(2026, 11, 1), "month").is_overdue(today=dt.date(2026, 11, 30))
    assert item(dt.date(2026, 11, 1), "month").is_overdue(today=dt.date(2026, 12, 1))
    assert not item(dt.date(2026, 1, 1), "year").is_overdue(today=dt.date(2026, 12, 31))
    assert item(dt.date(2026, 1, 1), "year").is_overdue(today=dt.date(2027, 1, 1))


def test_done_and_dropped_items_are_never_overdue():
    assert not item(dt.date(2020, 1, 1), "year", state="done").is_overdue(today=dt.date(2026, 1, 1))
    assert not item(dt.date(2020, 1, 1), "year", state="dropped").is_overdue(today=dt.date(2026, 1, 1))


def test_overdue_is_decided_in_the_status_page_time_zone(settings):
    q1 = item(dt.date(2025, 1, 1), "quarter")
    # 23:30 UTC on 31 March is already 1 April in Oslo (UTC+2 in summer time)...
    with time_machine.travel(dt.datetime(2025, 3, 31, 23, 30, tzinfo=dt.UTC), tick=False):
        settings.STATUS_TIME_ZONE = "Europe/Oslo"
        assert status_page_today() == dt.date(2025, 4, 1)
        assert q1.is_overdue()
        # ...but still 31 March in New York.
        settings.STATUS_TIME_ZONE = "America/New_York"
        assert not q1.is_overdue()


@pytest.mark.parametrize(
    ("due", "precision"),
    [
        (dt.date(2025, 2, 1), "quarter"),
        (dt.date(2025, 4, 2), "quarter"),
        (dt.date(2026, 11, 15), "month"),
        (dt.date(2026, 6, 1), "year"),
    ],
)
def test_due_date_that_does_not_fit_its_precision_is_refused(db, responder, due, precision):
    incident = declare_incident(
        DeclareIncident(title="Pool collapse", language="en", body="x"), actor=responder
    )
    postmortem = Postmortem.objects.create(incident=incident)
    with pytest.raises(ValidationError) as error:
        save_action_item(
            ActionItem(
                postmortem=postmortem, title={"en": "Watchdog"}, due_date=due, due_precision=precision
            ),
            actor=responder,
        )
    assert "due_date" in error.value.message_dict
    assert not ActionItem.objects.exists()
