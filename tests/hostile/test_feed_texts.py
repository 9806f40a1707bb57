"""Names and titles that look like markup reach feed readers as text: RSS readers parse titles
and descriptions as HTML, Atom readers read type="text"."""

import html

import feedparser
import pytest

from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident
from incidents.models import Component
from incidents.services.components import save_component

pytestmark = pytest.mark.django_db

HOSTILE_NAMES = [
    "<img src=x onerror=alert(1)>",
    '"><script>alert(1)</script>',
    "<b>bold</b> & <i>co</i>",
    "&lt;img src=x onerror=alert(1)&gt;",  # already an entity: must not turn into markup either
]


@pytest.fixture
def named(admin, request):
    name = request.param
    component = save_component(Component(slug="target", name={"en": name}), actor=admin)
    declare_incident(
        DeclareIncident(
            title=name, language="en", body="Looking.", component_statuses={component: "major_outage"}
        ),
        actor=admin,
    )
    return name


def shown_text(detail) -> str:
    """What a reader shows for a feedparser text construct: HTML is parsed, text is taken as is."""
    return html.unescape(detail.value) if detail.type == "text/html" else detail.value


def assert_shown_as_text(detail, expected: str) -> None:
    if detail.type == "text/html":
        assert "<" not in detail.value, detail.value  # no element at all once parsed as HTML
    assert shown_text(detail) == expected


@pytest.mark.parametrize("named", HOSTILE_NAMES, indirect=True)
@pytest.mark.parametrize("path", ["/components/target/history.rss", "/ru/components/target/history.rss"])
def test_an_rss_reader_shows_a_component_name_and_an_incident_title_as_text(client, named, path):
    parsed = feedparser.parse(client.get(path).content)
    assert not parsed.bozo, parsed.bozo_exception
    assert shown_text(parsed.feed.title_detail).endswith(named)
    assert_shown_as_text(parsed.feed.title_detail, shown_text(parsed.feed.title_detail))
    assert named in shown_text(parsed.feed.subtitle_detail)
    assert_shown_as_text(parsed.feed.subtitle_detail, shown_text(parsed.feed.subtitle_detail))
    [entry] = parsed.entries
    assert shown_text(entry.title_detail).startswith(named + ":")
    assert_shown_as_text(entry.title_detail, shown_text(entry.title_detail))


@pytest.mark.parametrize("named", HOSTILE_NAMES, indirect=True)
def test_an_atom_reader_shows_a_component_name_and_an_incident_title_as_text(client, named):
    parsed = feedparser.parse(client.get("/components/target/history.atom").content)
    assert not parsed.bozo, parsed.bozo_exception
    assert parsed.feed.title_detail.type == "text/plain"
    assert parsed.feed.title.endswith(named)
    [entry] = parsed.entries
    assert entry.title_detail.type == "text/plain"
    assert entry.title.startswith(named + ":")


def test_the_site_feed_title_stays_readable(client, admin, settings):
    settings.STATUS_PAGE_NAME = "Acme & <Sons>"
    parsed = feedparser.parse(client.get("/history.rss").content)
    assert shown_text(parsed.feed.title_detail) == "Acme & <Sons>: incidents and maintenance"
    assert_shown_as_text(parsed.feed.title_detail, "Acme & <Sons>: incidents and maintenance")
