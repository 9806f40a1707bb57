"""Each event's block is drawn once per what it shows: an update draws its own incident's block
again and no other, and every change to an event shows on the next request."""

from collections import Counter

import pytest

from incidents.lifecycle.commands import EditIncident, PostUpdate
from incidents.lifecycle.edits import edit_incident
from incidents.lifecycle.updates import post_update
from incidents.public import event_blocks

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawn(monkeypatch):
    """The blocks drawn, by template and event."""
    event_blocks.forget()
    count: Counter = Counter()
    get_template = event_blocks.get_template

    class Counting:
        def __init__(self, name):
            self.name, self.template = name, get_template(name)

        def render(self, context):
            count[(self.name, context["event"].slug)] += 1
            return self.template.render(context)

    monkeypatch.setattr(event_blocks, "get_template", Counting)
    yield count
    event_blocks.forget()


def test_an_update_draws_only_its_own_incidents_block_again(client, site, admin, drawn):
    client.get("/")
    client.get("/history/")
    post_update(
        site["current"],
        PostUpdate(status="identified", body={"en": "Cause found: a bad deploy."}, language="en"),
        actor=admin,
    )

    assert "Cause found: a bad deploy." in client.get("/").content.decode()
    client.get("/history/")

    current, past, upcoming = site["current"].slug, site["past"].slug, site["upcoming"].slug
    assert drawn[("public/_incident_summary.html", current)] == 2
    assert drawn[("public/_maintenance_line.html", upcoming)] == 1
    assert drawn[("public/_history_item.html", past)] == 2  # the overview's h4 and the history's h3


def test_a_retitled_event_shows_its_title_everywhere_at_once(client, site, admin, drawn):
    past = site["past"]
    assert "Webhooks stuck" not in client.get("/").content.decode()
    client.get("/history/")

    edit_incident(
        past, EditIncident(expected_version=past.version, title={"en": "Webhooks stuck"}), actor=admin
    )

    assert "Webhooks stuck" in client.get("/").content.decode()
    assert "Webhooks stuck" in client.get("/history/").content.decode()


def test_each_language_draws_its_own_block(client, site, drawn):
    english = client.get("/").content.decode()
    russian = client.get("/ru/").content.decode()

    assert "The whole maintenance window: Database upgrade" in english
    assert "Всё окно технических работ: Database upgrade" in russian
    assert drawn[("public/_maintenance_line.html", site["upcoming"].slug)] == 2
