"""Markdown reads as written: a line that begins with a date ("12. september …") stays a paragraph,
ordered lists keep the number they start at, and `start` carries nothing but a number."""

import hashlib

import feedparser
import pytest

from incidents.lifecycle.commands import DeclareIncident, PostUpdate
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import post_update
from incidents.models import IncidentUpdate
from incidents.rendering import markdown_digest, render_markdown

pytestmark = pytest.mark.django_db

NORWEGIAN = "12. september mellom 10:41 og 11:02 ble webhooks forsinket med opptil 23 minutter."
LIST_FROM_THREE = "3. Tøm køen\n4. Start arbeiderne på nytt"


def test_a_line_beginning_with_a_date_is_a_paragraph_as_written():
    html = str(render_markdown(NORWEGIAN))
    assert html == f"<p>{NORWEGIAN}</p>"


def test_a_date_after_a_paragraph_is_a_paragraph_too():
    html = str(render_markdown("Hendelsen:\n\n1. januar var *alt* nede."))
    assert html == "<p>Hendelsen:</p>\n<p>1. januar var <em>alt</em> nede.</p>"


def test_an_ordered_list_keeps_its_start_number():
    html = str(render_markdown(LIST_FROM_THREE))
    assert html.startswith('<ol start="3">')
    assert html.count("<li>") == 2


def test_a_list_starting_at_one_has_no_start():
    assert str(render_markdown("1. First\n2. Second")).startswith("<ol>\n<li>First")


@pytest.mark.parametrize(
    ("raw", "kept"),
    [
        ('<ol start="1 onmouseover=alert(1)"><li>x</li></ol>', "<ol><li>x</li></ol>"),
        ('<ol start="3" onmouseover="alert(1)"><li>x</li></ol>', '<ol start="3"><li>x</li></ol>'),
        ('<ol start="javascript:alert(1)"><li>x</li></ol>', "<ol><li>x</li></ol>"),
        ('<ol start="-1"><li>x</li></ol>', "<ol><li>x</li></ol>"),
        ('<ol start="007"><li>x</li></ol>', '<ol start="7"><li>x</li></ol>'),
        ('<ul start="3"><li>x</li></ul>', "<ul><li>x</li></ul>"),
        ('<p start="3">x</p>', "<p>x</p>"),
    ],
)
def test_start_is_kept_only_as_a_whole_number_on_an_ordered_list(raw, kept):
    assert str(render_markdown(raw)) == kept


@pytest.fixture
def norwegian_incident(admin):
    incident = declare_incident(
        DeclareIncident(title="Forsinkede webhooks", language="nb", body=NORWEGIAN, impact="major"),
        actor=admin,
    )
    post_update(
        incident, PostUpdate(status="identified", body={"nb": LIST_FROM_THREE}, language="nb"), actor=admin
    )
    post_update(
        incident,
        PostUpdate(
            status="monitoring",
            body={"nb": '<ol start="1 onmouseover=alert(1)"><li>Overvåker</li></ol>'},
            language="nb",
        ),
        actor=admin,
    )
    return incident


def test_the_incident_page_shows_the_date_the_list_and_no_injected_handler(client, norwegian_incident):
    page = client.get(f"/nb/incidents/{norwegian_incident.slug}/").content.decode()
    assert f"<p>{NORWEGIAN}</p>" in page
    assert "<li>september" not in page
    assert '<ol start="3">' in page
    assert "<ol><li>Overvåker</li></ol>" in page
    assert "onmouseover" not in page


def test_the_feed_shows_the_date_the_list_and_no_injected_handler(client, norwegian_incident):
    for path in ("/nb/history.atom", "/nb/history.rss"):
        response = client.get(path)
        summaries = " ".join(entry.summary for entry in feedparser.parse(response.content).entries)
        assert f"<p>{NORWEGIAN}</p>" in summaries, path
        assert '<ol start="3">' in summaries, path
        assert "onmouseover" not in response.content.decode(), path


def test_html_stored_under_the_previous_rules_is_rendered_again(client, admin):
    incident = declare_incident(
        DeclareIncident(title="Forsinkelse", language="nb", body=NORWEGIAN), actor=admin
    )
    update = IncidentUpdate.objects.get(incident=incident)
    # What the services stored before lists kept their number and dates stayed paragraphs.
    before = hashlib.blake2b(f"1\n{NORWEGIAN}".encode(), digest_size=12).hexdigest()
    IncidentUpdate.objects.filter(pk=update.pk).update(
        body_html={before: "<ol>\n<li>september mellom 10:41 og 11:02</li>\n</ol>"}
    )
    page = client.get(f"/nb/incidents/{incident.slug}/").content.decode()
    assert f"<p>{NORWEGIAN}</p>" in page
    feed = client.get("/nb/history.atom").content.decode()
    assert "&lt;li&gt;september" not in feed and "12. september mellom" in feed


def test_the_incident_page_shows_the_html_stored_with_the_update(client, admin):
    incident = declare_incident(
        DeclareIncident(title="Forsinkelse", language="nb", body=NORWEGIAN), actor=admin
    )
    # Stored under the current rules, so the page shows it as written rather than rendering again.
    IncidentUpdate.objects.filter(incident=incident).update(
        body_html={markdown_digest(NORWEGIAN): "<p>As stored when it was posted.</p>"}
    )

    page = client.get(f"/nb/incidents/{incident.slug}/").content.decode()

    assert "<p>As stored when it was posted.</p>" in page
