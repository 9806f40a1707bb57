"""Every list shows an edit on the next render, after the pages were shown once."""

import feedparser
import pytest

from incidents.lifecycle.commands import EditIncident, EditUpdate
from incidents.lifecycle.edits import edit_incident, edit_update
from incidents.models import Component, Incident
from incidents.services.components import save_component

pytestmark = [pytest.mark.django_db, pytest.mark.site_once]


def rename_api(admin) -> None:
    api = Component.objects.get(slug="public-api")
    api.name = {"en": "Partner API", "ru": "Партнёрский API"}
    save_component(api, actor=admin)


def test_a_renamed_component_shows_in_the_history_filter_and_its_rows(client, site, admin):
    before = client.get("/history/").content.decode()
    assert "Public API" in before
    rename_api(admin)
    after = client.get("/history/").content.decode()
    assert "Public API" not in after
    assert '<option value="public-api">Partner API</option>' in after
    assert '<ul class="affected" aria-label="Affected components"><li>Partner API</li></ul>' in after


def test_a_renamed_component_shows_in_the_uptime_table(client, site, admin):
    assert "Публичный API" in client.get("/ru/uptime/").content.decode()
    rename_api(admin)
    after = client.get("/ru/uptime/").content.decode()
    assert "Партнёрский API" in after and "Публичный API" not in after


def test_a_retitled_incident_shows_in_the_history_and_the_feeds(client, site, admin):
    incident = Incident.objects.get(title__en="Webhooks delayed")
    assert "Webhooks delayed" in client.get("/history/").content.decode()
    feedparser.parse(client.get("/history.atom").content)
    edit_incident(
        incident,
        EditIncident(expected_version=incident.version, title={"en": "Webhook backlog"}),
        actor=admin,
    )
    assert "Webhook backlog" in client.get("/history/").content.decode()
    titles = [entry.title for entry in feedparser.parse(client.get("/history.atom").content).entries]
    assert "Webhook backlog: Resolved" in titles
    assert not any(title.startswith("Webhooks delayed") for title in titles)


def test_a_corrected_update_shows_in_the_feed(client, site, admin):
    update = Incident.objects.get(title__en="Webhooks delayed").updates.order_by("created_at").first()
    client.get("/components/webhook-delivery/history.rss")
    edit_update(
        update,
        EditUpdate(language="en", text="Delays **confirmed**.", expected_version=update.version),
        actor=admin,
    )
    parsed = feedparser.parse(client.get("/components/webhook-delivery/history.rss").content)
    assert any("<strong>confirmed</strong>" in entry.summary for entry in parsed.entries)
