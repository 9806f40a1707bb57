"""Open and overdue action items across incidents, sortable by due date and owner."""

import datetime as dt

import pytest
import time_machine

from incidents.lifecycle.postmortems import save_action_item
from incidents.models import ActionItem

from .conftest import logged_in


@pytest.fixture
def items(postmortem, responder, admin):
    def add(title, **fields):
        return save_action_item(
            ActionItem(postmortem=postmortem, title={"en": title}, **fields), actor=responder
        )

    return [
        add("Late by a month", owner=responder, due_date=dt.date(2026, 4, 1), due_precision="month"),
        add("Due next year", owner=admin, due_date=dt.date(2027, 1, 1), due_precision="year"),
        add("Overdue day", owner_name="Zed team", due_date=dt.date(2026, 5, 2)),
        add("Already done", owner=responder, due_date=dt.date(2026, 1, 1), state="done"),
        add("Internal", owner_name="Ops", is_public=False),
    ]


@pytest.mark.django_db
@time_machine.travel(dt.datetime(2026, 6, 1, 9, 0, tzinfo=dt.UTC), tick=False)
def test_dashboard_lists_open_items_with_overdue_marked(viewer, items):
    page = logged_in(viewer).get("/editor/action-items/").content.decode()
    assert "Already done" not in page
    assert "Internal" in page  # viewers see internal items
    assert (
        page.index("Late by a month")
        < page.index("Overdue day")
        < page.index("Due next year")
        < page.index("Internal")
    )
    assert "2 overdue items" in page


@pytest.mark.django_db
@time_machine.travel(dt.datetime(2026, 6, 1, 9, 0, tzinfo=dt.UTC), tick=False)
def test_dashboard_sorts_by_owner_and_filters_overdue(viewer, items):
    client = logged_in(viewer)
    page = client.get("/editor/action-items/?sort=owner").content.decode()
    # ada < ops < rita < zed team
    assert (
        page.index("Due next year")
        < page.index("Internal")
        < page.index("Late by a month")
        < page.index("Overdue day")
    )
    overdue = client.get("/editor/action-items/?overdue=1").content.decode()
    assert "Late by a month" in overdue and "Overdue day" in overdue and "Due next year" not in overdue
