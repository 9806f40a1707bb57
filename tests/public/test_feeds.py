"""RSS and Atom feeds: valid, one entry per update, stable ids, per language, conditional GET."""

import datetime as dt
import re

import feedparser
import pytest
from django.utils import timezone

from incidents.lifecycle.commands import EditUpdate, PostUpdate
from incidents.lifecycle.edits import edit_update
from incidents.lifecycle.updates import post_update
from incidents.models import IncidentUpdate

pytestmark = [pytest.mark.django_db, pytest.mark.site_once]

FEEDS = [
    "/history.atom",
    "/history.rss",
    "/ru/history.atom",
    "/es/history.rss",
    "/nb/history.atom",
    "/components/webhook-delivery/history.atom",
    "/components/webhook-delivery/history.rss",
    "/ru/components/public-api/history.atom",
]


def parse(client, path):
    response = client.get(path)
    assert response.status_code == 200, path
    parsed = feedparser.parse(response.content)
    assert not parsed.bozo, (path, parsed.get("bozo_exception"))
    return response, parsed


@pytest.mark.parametrize("path", FEEDS)
def test_every_feed_parses_with_absolute_links_and_dates(client, site, path):
    response, parsed = parse(client, path)
    assert parsed.version in ("atom10", "rss20")
    assert parsed.entries
    # Atom dates an entry by <updated>, RSS an item by <pubDate>.
    dated_by = "updated_parsed" if parsed.version == "atom10" else "published_parsed"
    for entry in parsed.entries:
        assert entry.link.startswith("http://127.0.0.1:8000/")
        assert "#update-" in entry.link
        assert entry.id.startswith("tag:127.0.0.1,")
        assert entry.get(dated_by)
    assert response.has_header("Last-Modified") and response.has_header("ETag")


def test_whole_page_feed_has_an_entry_per_published_update(client, site):
    _response, parsed = parse(client, "/history.atom")
    # past: 3 updates, current: 1, upcoming maintenance: 1.
    assert len(parsed.entries) == 5
    titles = [e.title for e in parsed.entries]
    assert "Webhooks delayed: Resolved" in titles and "Database upgrade: Scheduled" in titles


def test_component_feed_holds_only_that_components_updates(client, site):
    _response, parsed = parse(client, "/components/webhook-delivery/history.rss")
    assert {e.title.split(":")[0] for e in parsed.entries} == {"Webhooks delayed"}


def test_feed_language_follows_the_prefix(client, site):
    _response, parsed = parse(client, "/ru/history.atom")
    assert parsed.feed.language == "ru"
    assert any("Очередь застряла." in e.summary for e in parsed.entries)
    assert all(e.link.startswith("http://127.0.0.1:8000/ru/incidents/") for e in parsed.entries)
    _response, english = parse(client, "/history.atom")
    assert any("A queue was stuck." in e.summary for e in english.entries)


def test_entry_ids_are_stable_across_renders_and_unique(client, site, admin):
    _r, first = parse(client, "/history.atom")
    post_update(
        site["current"], PostUpdate(status="identified", body={"en": "Found it."}, language="en"), actor=admin
    )
    _r, second = parse(client, "/history.atom")
    first_ids = [e.id for e in first.entries]
    assert len(set(first_ids)) == len(first_ids)
    assert set(first_ids) < {e.id for e in second.entries}
    assert len(second.entries) == len(first.entries) + 1


def test_conditional_get_answers_304_and_changes_after_an_update(client, site, admin):
    response = client.get("/history.atom")
    etag, modified = response["ETag"], response["Last-Modified"]
    assert client.get("/history.atom", headers={"if-none-match": etag}).status_code == 304
    assert client.get("/history.atom", headers={"if-modified-since": modified}).status_code == 304
    post_update(
        site["current"], PostUpdate(status="identified", body={"en": "Found it."}, language="en"), actor=admin
    )
    changed = client.get("/history.atom", headers={"if-none-match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_pages_also_answer_conditional_get(client, site):
    response = client.get("/history/")
    assert client.get("/history/", headers={"if-none-match": response["ETag"]}).status_code == 304


@pytest.mark.parametrize("path", ["/", "/history/", "/uptime/", "/maintenance/", "/ru/"])
def test_every_page_advertises_its_feeds(client, site, path):
    page = client.get(path).content.decode()
    prefix = "/ru" if path.startswith("/ru") else ""
    feeds = re.findall(
        r'<link rel="alternate" type="application/(atom|rss)\+xml" title="([^"]+)" href="([^"]+)">', page
    )
    assert ("atom", f"{prefix}/history.atom") in {(kind, href) for kind, _title, href in feeds}
    assert ("rss", f"{prefix}/history.rss") in {(kind, href) for kind, _title, href in feeds}
    titles = {title for _kind, title, _href in feeds}
    assert (
        ("Все инциденты и технические работы (Atom)" in titles)
        if prefix
        else ("All incidents and maintenance (Atom)" in titles)
    )


def test_updated_date_follows_the_update(client, site):
    _r, parsed = parse(client, "/history.atom")
    newest = max(parsed.entries, key=lambda e: e.updated_parsed)
    assert dt.datetime(*newest.updated_parsed[:6], tzinfo=dt.UTC) <= timezone.now()


def test_feeds_show_the_html_stored_with_an_update_and_its_edits(client, site, admin):
    update = post_update(
        site["current"],
        PostUpdate(status="identified", body={"en": "Found **the** cause."}, language="en"),
        actor=admin,
    )
    assert list(update.body_html.values()) == ["<p>Found <strong>the</strong> cause.</p>"]
    update = edit_update(
        update, EditUpdate(language="en", text="Found *a* cause.", expected_version=1), actor=admin
    )
    update.refresh_from_db()
    assert list(update.body_html.values()) == ["<p>Found <em>a</em> cause.</p>"]
    _r, parsed = parse(client, "/history.atom")
    assert any("<em>a</em>" in e.summary for e in parsed.entries)


def test_a_text_changed_around_the_services_is_rendered_afresh(client, site, admin):
    update = post_update(
        site["current"], PostUpdate(status="identified", body={"en": "Old."}, language="en"), actor=admin
    )
    IncidentUpdate.objects.filter(pk=update.pk).update(body={"en": "New **text**."})  # as the admin would
    _r, parsed = parse(client, "/history.rss")
    summaries = [e.summary for e in parsed.entries]
    assert any("New <strong>text</strong>." in s for s in summaries)
    assert not any("Old." in s for s in summaries)
