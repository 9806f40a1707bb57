"""The editor's overview is a status board: what is broken now, what is open, what is overdue."""

import datetime as dt
import re

import pytest
import time_machine
from django.test import Client

from incidents import formatting
from incidents.lifecycle.commands import DeclareIncident, PostUpdate
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.postmortems import save_action_item
from incidents.lifecycle.updates import post_update
from incidents.models import ActionItem, ComponentStatus
from incidents.services.components import observe_component_status
from incidents.services.metrics import record_sample

from .conftest import logged_in

NOW = dt.datetime(2026, 3, 4, 12, 0, tzinfo=dt.UTC)


def section(page: str, element_id: str) -> str:
    """The HTML of the element with `element_id` up to the end of its section."""
    start = page.index(f'id="{element_id}"')
    return page[start : page.index("</section>", start)]


@pytest.fixture
def board(viewer):
    def read() -> str:
        return logged_in(viewer).get("/editor/").content.decode()

    return read


@pytest.mark.django_db
def test_the_board_lists_every_component_in_its_group_with_status_figure_and_thresholds(
    board, component, latency_metric, make_component
):
    make_component("exports", name={"en": "Data exports"}, only_show_if_degraded=True)
    with time_machine.travel(NOW, tick=False):
        record_sample(latency_metric, value=75.0, at=NOW - dt.timedelta(minutes=1))
        observe_component_status(
            component, status=ComponentStatus.DEGRADED_PERFORMANCE, at=NOW, reason="", automation="probes"
        )
        components = section(board(), "board-components")
    core = components[components.index("Core") : components.index("Data exports")]
    assert "Webhook delivery" in core and "Degraded performance" in core
    assert "75.0\u00a0s" in core  # the live figure with its unit
    assert "Degraded performance 60.0\u00a0s" in core and "Major outage 15\u00a0min" in core
    assert '<svg class="sparkline"' in core  # the 24 h line
    # A component the public page hides while it is operational is still on the board.
    assert "Data exports" in components and "Operational" in components


@pytest.mark.django_db
def test_open_incidents_show_their_last_update_and_how_long_they_have_been_open(board, api, responder):
    with time_machine.travel(NOW, tick=False):
        incident = declare_incident(
            DeclareIncident(
                title="Elevated API errors",
                language="en",
                body="We are investigating.",
                impact="major",
                component_statuses={api: "partial_outage"},
            ),
            actor=responder,
        )
    with time_machine.travel(NOW + dt.timedelta(minutes=10), tick=False):
        post_update(
            incident,
            PostUpdate(status="identified", body={"en": "A bad deploy."}, language="en"),
            actor=responder,
        )
    with time_machine.travel(NOW + dt.timedelta(minutes=70), tick=False):
        open_now = section(board(), "board-open")
    assert "Elevated API errors" in open_now and f"/editor/incidents/{incident.pk}/" in open_now
    assert "open for " + formatting.format_duration(dt.timedelta(minutes=70), "en") in open_now
    last = "Last update: Identified, " + formatting.format_age(dt.timedelta(minutes=60), "en")
    assert last in open_now and "A bad deploy." in open_now


@pytest.mark.django_db
def test_nothing_open_is_said_in_words(board, api):
    assert "No open incidents and no maintenance in progress." in section(board(), "board-open")


@pytest.mark.django_db
def test_responders_get_a_prominent_declare_button_and_viewers_do_not(responder, viewer):
    for_responder = logged_in(responder).get("/editor/").content.decode()
    button = re.search(r'<a class="([^"]*)" href="/editor/incidents/new/" id="declare-link">', for_responder)
    assert button and "primary" in button[1].split()
    assert 'id="declare-link"' not in logged_in(viewer).get("/editor/").content.decode()


@pytest.mark.django_db
def test_overdue_action_items_are_listed_and_items_on_time_are_not(board, postmortem, responder, action_item):
    save_action_item(
        ActionItem(postmortem=postmortem, title={"en": "Write a runbook"}, due_date=dt.date(2026, 12, 1)),
        actor=responder,
    )
    with time_machine.travel(NOW, tick=False):
        overdue = section(board(), "board-overdue")
    assert "Add a canary" in overdue and "rita" in overdue
    assert "Write a runbook" not in overdue
    assert "All 1 overdue action item" in overdue


@pytest.mark.django_db
def test_configuration_changes_are_said_in_words_and_collapsed(board, component):
    observe_component_status(
        component, status=ComponentStatus.DEGRADED_PERFORMANCE, at=NOW, reason="", automation="probes"
    )
    changes = section(board(), "board-config")
    assert "Webhook delivery: Operational → Degraded performance, by the probes" in changes
    assert "{'status'" not in changes and "component.status_changed" not in changes
    assert '<details class="config-changes">' in changes  # closed until asked for


@pytest.mark.django_db
def test_the_board_refreshes_its_parts_by_themselves(board):
    page = board()
    assert re.search(r'<body[^>]*data-refresh-interval="\d+"', page)
    for part in ("board-open", "board-components", "board-overdue", "board-config"):
        assert re.search(rf'id="{part}"[^>]*data-refresh', page)


def quick_update_form(page: str, incident_pk: int) -> tuple[str, dict[str, str]]:
    """The action of a board row's quick update form and what a browser sends from it untouched."""
    start = page.index(f'id="quick-update-{incident_pk}"')
    form = page[page.rindex("<form", 0, start) : page.index("</form>", start)]
    action = re.search(r'action="([^"]+)"', form)[1]
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    fields["status"] = re.search(r'<option value="([^"]*)" selected>', form)[1]
    if re.search(r'name="deliver_notifications"[^>]* checked', form):
        fields["deliver_notifications"] = "on"
    return action, fields


@pytest.fixture
def open_incident(api, responder):
    return declare_incident(
        DeclareIncident(
            title="Elevated API errors",
            language="en",
            body="We are investigating.",
            impact="major",
            component_statuses={api: "partial_outage"},
        ),
        actor=responder,
    )


@pytest.mark.django_db
def test_each_open_incident_on_the_board_has_a_quick_update_and_a_way_to_resolve(responder, open_incident):
    page = logged_in(responder).get("/editor/").content.decode()
    row = section(page, "board-open")
    action, fields = quick_update_form(row, open_incident.pk)
    assert action == f"/editor/incidents/{open_incident.pk}/updates/"
    assert set(fields) == {"csrfmiddlewaretoken", "language", "status", "deliver_notifications"}
    assert fields["status"] == "investigating" and fields["language"] == "en"
    assert f'href="/editor/incidents/{open_incident.pk}/#resolve-heading">Resolve…</a>' in row


@pytest.mark.django_db
def test_viewers_get_no_quick_update_on_the_board(board, open_incident):
    row = section(board(), "board-open")
    assert "Elevated API errors" in row
    assert "<form" not in row and "Resolve…" not in row


@pytest.mark.django_db
def test_a_quick_update_from_the_board_is_posted_with_its_csrf_token_and_notifies(responder, open_incident):
    client = Client(enforce_csrf_checks=True)
    client.force_login(responder)
    action, fields = quick_update_form(client.get("/editor/").content.decode(), open_incident.pk)
    refused = client.post(action, {**fields, "csrfmiddlewaretoken": "", "body": "Ignored."})
    assert refused.status_code == 403
    response = client.post(action, {**fields, "status": "identified", "body": "A bad deploy; rolling back."})
    assert response.status_code == 302 and response["Location"] == f"/editor/incidents/{open_incident.pk}/"
    open_incident.refresh_from_db()
    latest = open_incident.updates.timeline().first()
    assert open_incident.status == "identified"
    assert latest.body == {"en": "A bad deploy; rolling back."} and latest.deliver_notifications
    assert "A bad deploy; rolling back." in client.get(response["Location"]).content.decode()
