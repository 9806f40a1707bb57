"""The overview's components section is kept under what it shows: an incident update draws only
the rest of the page, and every change the section shows reaches it on the next request."""

import datetime as dt
import re

import pytest
import time_machine
from django.utils import timezone

from incidents.lifecycle.commands import EditIncident, EnterRecord, PostUpdate, ResolveIncident
from incidents.lifecycle.edits import edit_incident
from incidents.lifecycle.opening import enter_record
from incidents.lifecycle.updates import post_update, resolve_incident
from incidents.public import presentation
from incidents.services.components import save_component, save_group, set_component_status
from incidents.services.metrics import record_sample, save_metric

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(monkeypatch):
    """How many times the overview drew its components section."""
    count = {"sections": 0}
    draw = presentation.components_section_context

    def counting(*args, **kwargs):
        count["sections"] += 1
        return draw(*args, **kwargs)

    monkeypatch.setattr(presentation, "components_section_context", counting)
    return count


def components_section(page: str) -> str:
    return re.search(r'<section aria-labelledby="components".*?</section>', page, re.S).group(0)


def test_an_incident_update_shows_at_once_and_takes_the_components_as_they_were(
    client, site, admin, drawn, django_capture_on_commit_callbacks
):
    before = client.get("/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        post_update(
            site["current"],
            PostUpdate(status="identified", body={"en": "Cause found: a bad deploy."}, language="en"),
            actor=admin,
        )

    after = client.get("/").content.decode()

    assert "Cause found: a bad deploy." in after
    assert components_section(after) == components_section(before)
    assert drawn["sections"] == 1


def test_each_language_has_its_own_section(client, site, drawn):
    assert "Публичный API" in components_section(client.get("/ru/").content.decode())
    assert "Публичный API" not in components_section(client.get("/").content.decode())
    assert drawn["sections"] == 2


def change(name: str, site: dict, admin) -> None:
    """One change of what the components section shows, made as the editor makes it."""
    if name == "component_renamed":
        site["email"].name = {"en": "Mail delivery"}
        save_component(site["email"], actor=admin)
    elif name == "group_renamed":
        group = site["groups"][1]
        group.name = {"en": "Outbound"}
        save_group(group, actor=admin)
    elif name == "status":
        set_component_status(site["email"], status="degraded_performance", actor=admin)
    elif name == "threshold":
        site["delay"].degraded_threshold = 45
        save_metric(site["delay"], actor=admin)
    elif name == "incident_retitled":
        past = site["past"]
        edit_incident(
            past, EditIncident(expected_version=past.version, title={"en": "Webhooks stuck"}), actor=admin
        )
    elif name == "record_entered":
        started = timezone.now() - dt.timedelta(days=5, hours=3)
        record = enter_record(
            EnterRecord(
                title="Mail bounced",
                language="en",
                body="Mail bounced.",
                component_statuses={site["email"]: "major_outage"},
                started_at=started,
            ),
            actor=admin,
        )
        resolve_incident(
            record,
            ResolveIncident(body={"en": "Fixed."}, language="en", display_at=started + dt.timedelta(hours=2)),
            actor=admin,
        )
    else:
        record_sample(site["delay"], value=42.5, at=timezone.now())


SHOWN = {
    "component_renamed": "Mail delivery",
    "group_renamed": "Outbound",
    "status": "1 of 2 components affected",
    "threshold": "limit 45.0\u00a0s",
    "incident_retitled": "Webhooks stuck",
    "record_entered": "down for 2 hours",
    "sample": "42.5\u00a0s",
}


@pytest.mark.parametrize("name", SHOWN)
def test_every_change_the_section_shows_reaches_the_next_request(
    client, site, admin, settings, django_capture_on_commit_callbacks, name
):
    settings.PUBLIC_METRICS_REFRESH_SECONDS = 600  # the section is kept longer than the test runs
    assert SHOWN[name] not in components_section(client.get("/").content.decode())
    with django_capture_on_commit_callbacks(execute=True):
        change(name, site, admin)

    assert SHOWN[name] in components_section(client.get("/").content.decode())


def test_the_section_is_drawn_again_after_the_refresh_interval(client, site, settings, drawn):
    settings.PUBLIC_METRICS_REFRESH_SECONDS = 10
    client.get("/")
    client.get("/")
    assert drawn["sections"] == 1
    with time_machine.travel(timezone.now() + dt.timedelta(seconds=11)):
        client.get("/")
    assert drawn["sections"] == 2


def test_without_a_refresh_interval_nothing_is_kept(client, site, settings, drawn):
    settings.PUBLIC_METRICS_REFRESH_SECONDS = 0
    client.get("/")
    client.get("/")
    assert drawn["sections"] == 2
