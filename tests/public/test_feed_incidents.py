"""Feeds list the newest incidents with all their updates, and each Atom entry names the
language of the text it shows."""

import datetime as dt
import xml.etree.ElementTree as ET

import pytest
from django.utils import timezone

from incidents.lifecycle.commands import DeclareIncident, PostUpdate
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import post_update

pytestmark = [pytest.mark.django_db, pytest.mark.site_once]

ATOM = "{http://www.w3.org/2005/Atom}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def entries(client, url: str) -> list[ET.Element]:
    response = client.get(url)
    assert response.status_code == 200
    return ET.fromstring(response.content).findall(f"{ATOM}entry")


def titles(client, url: str) -> list[str]:
    return [entry.find(f"{ATOM}title").text for entry in entries(client, url)]


def test_a_long_incident_does_not_push_older_incidents_out_of_the_feed(client, site, admin, settings):
    settings.PUBLIC_FEED_ENTRIES = 3
    busy = site["current"]
    for n in range(6):
        post_update(
            busy,
            PostUpdate(status="identified", body={"en": f"Still on it ({n})."}, language="en"),
            actor=admin,
        )
    shown = titles(client, "/history.atom")
    # Three incidents, every update of each: the busy one's seven, and the two others'.
    assert sum(title.startswith("Webhooks delayed:") for title in shown) == 3
    assert sum(title.startswith("Сбой API:") for title in shown) == 7
    assert any(title.startswith("Database upgrade:") for title in shown)


def test_the_feed_keeps_only_the_newest_incidents(client, site, admin, settings):
    settings.PUBLIC_FEED_ENTRIES = 1
    declare_incident(DeclareIncident(title="Login slow", language="en", body="Looking."), actor=admin)
    assert {title.split(":")[0] for title in titles(client, "/history.atom")} == {"Login slow"}


def test_an_entry_names_the_language_of_the_text_it_shows(client, site):
    by_text = {
        entry.find(f"{ATOM}summary").text: entry.get(XML_LANG)
        for entry in entries(client, "/ru/history.atom")
    }
    [translated] = [lang for text, lang in by_text.items() if "Очередь застряла." in text]
    assert translated == "ru"
    # No Russian text: the entry shows the English one, and says so.
    [fallback] = [lang for text, lang in by_text.items() if "Delivery is back to normal." in text]
    assert fallback == "en"


def test_an_entry_in_the_feeds_language_says_it(client, site, admin):
    incident = declare_incident(
        DeclareIncident(title="Сбой", language="ru", body="Ищем причину."), actor=admin
    )
    post_update(
        incident,
        PostUpdate(
            status="identified",
            body={"ru": "Нашли."},
            language="ru",
            display_at=timezone.now() + dt.timedelta(seconds=1),
        ),
        actor=admin,
    )
    langs = {
        entry.get(XML_LANG)
        for entry in entries(client, "/nb/history.atom")
        if entry.find(f"{ATOM}title").text.startswith("Сбой:")
    }
    assert langs == {"ru"}
