"""Every XSS payload renders inert in every place Markdown appears: pages and feeds."""

import xml.etree.ElementTree as ET

import pytest

from incidents.lifecycle.commands import DeclareIncident, PostUpdate, WritePostmortem
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.postmortems import publish_postmortem, write_postmortem
from incidents.lifecycle.updates import post_update
from incidents.models import Component, Metric
from incidents.rendering import render_markdown
from incidents.services.components import save_component
from incidents.services.metrics import record_sample

from .inert import problems_in
from .xss_corpus import PAYLOADS

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"


def test_the_corpus_is_large_enough():
    assert len(PAYLOADS) >= 30


def test_the_checker_catches_what_it_looks_for():
    # Without this, a checker that finds nothing would pass every other test here.
    for raw in ("<script>x</script>", '<a href="javascript:x">a</a>', '<p onclick="x">', '<svg onload="x">'):
        assert problems_in(raw, whole_page=False)
    # On a whole page only our own scripts pass: files under /static/js/ and the theme snippet.
    assert problems_in('<script src="/static/js/refresh.js" defer></script>') == []
    assert problems_in("<script>alert(1)</script>")
    assert problems_in('<script src="https://evil.example/x.js"></script>')
    assert problems_in('<div class="prose"><script src="/static/js/refresh.js"></script></div>')


@pytest.mark.parametrize("payload", PAYLOADS)
def test_render_markdown_makes_each_payload_inert(payload):
    assert problems_in(str(render_markdown(payload)), whole_page=False) == []


@pytest.fixture
def hostile(admin):
    """An incident, a maintenance window, a postmortem and a component, all written by an attacker."""
    corpus = "\n\n".join(PAYLOADS)
    # Plain texts (names, titles) end up in SVG labels and tooltips: they must be escaped there too.
    hostile_name = '"><script>alert(1)</script><svg onload=alert(1)>'
    component = save_component(
        Component(slug="target", name={"en": hostile_name}, description={"en": corpus}), actor=admin
    )
    metric = Metric.objects.create(component=component, slug="delay", name={"en": hostile_name}, unit="ms")
    record_sample(metric, value=12.0)
    incident = declare_incident(
        DeclareIncident(
            title="<script>alert('title')</script>\"><svg onload=alert(1)>",
            language="en",
            body=corpus,
            component_statuses={component: "major_outage"},
        ),
        actor=admin,
    )
    for payload in PAYLOADS[:10]:
        post_update(
            incident,
            PostUpdate(status="identified", body={"en": payload, "ru": payload}, language="en"),
            actor=admin,
        )
    postmortem = write_postmortem(
        incident,
        WritePostmortem(language="en", sections={"summary": corpus, "root_cause": corpus}),
        actor=admin,
    )
    publish_postmortem(postmortem, actor=admin)
    return {"incident": incident, "component": component}


@pytest.mark.parametrize("prefix", ["", "/ru"])
def test_every_page_with_markdown_is_inert(client, hostile, prefix):
    slug = hostile["incident"].slug
    for path in ("/", f"/incidents/{slug}/", "/components/target/", "/history/", "/maintenance/", "/uptime/"):
        response = client.get(prefix + path)
        assert response.status_code == 200
        page = response.content.decode()
        assert problems_in(page) == [], path
        assert "<script>alert" not in page
    # The payloads arrived (escaped), so the test is not passing on an empty page.
    assert (
        "&lt;script&gt;alert(&#x27;title&#x27;)&lt;/script&gt;"
        in client.get(f"/incidents/{slug}/").content.decode()
    )


@pytest.mark.parametrize("path", ["/history.atom", "/components/target/history.atom"])
def test_atom_entries_are_inert(client, hostile, path):
    root = ET.fromstring(client.get(path).content)
    entries = root.findall(f"{ATOM}entry")
    assert entries
    for entry in entries:
        summary = entry.find(f"{ATOM}summary").text or ""
        assert problems_in(summary, whole_page=False) == []


@pytest.mark.parametrize("path", ["/history.rss", "/ru/components/target/history.rss"])
def test_rss_items_are_inert(client, hostile, path):
    root = ET.fromstring(client.get(path).content)
    items = root.findall("channel/item")
    assert items
    for item in items:
        assert problems_in(item.find("description").text or "", whole_page=False) == []
