"""Every feed, in every language, follows the rules the W3C Feed Validation Service checks:
authors, stable tag URI ids, RFC 3339 and RFC 822 dates, a typed self link, the language."""

import re
import xml.etree.ElementTree as ET

import feedparser
import pytest

from incidents.lifecycle.commands import EditUpdate
from incidents.lifecycle.edits import edit_update

pytestmark = [pytest.mark.django_db, pytest.mark.site_once]

ATOM = "{http://www.w3.org/2005/Atom}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
SITE = "http://127.0.0.1:8000"
PREFIXES = {"en": "", "ru": "/ru", "es": "/es", "nb": "/nb"}
PATHS = ["/history", "/components/webhook-delivery/history"]
RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)")
RFC822 = re.compile(
    r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} "
    r"\d\d:\d\d:\d\d ([+-]\d{4}|GMT)"
)
TAG_URI = re.compile(r"tag:[a-z0-9.-]+,\d{4}-\d\d-\d\d:[^\s#]+")  # RFC 4151

FEEDS = [(language, PREFIXES[language] + path) for language in PREFIXES for path in PATHS]


def fetch(client, url: str) -> ET.Element:
    response = client.get(url)
    assert response.status_code == 200, url
    parsed = feedparser.parse(response.content)
    assert parsed.bozo == 0, (url, parsed.get("bozo_exception"))
    return ET.fromstring(response.content)


def one(element: ET.Element, path: str) -> ET.Element:
    found = element.findall(path)
    assert len(found) == 1, (path, len(found))
    return found[0]


def self_link(element: ET.Element, path: str) -> dict:
    [link] = [link.attrib for link in element.findall(path) if link.get("rel") == "self"]
    return link


def assert_atom_author(element: ET.Element) -> None:
    assert one(element, f"{ATOM}author/{ATOM}name").text == "Acme Status"


@pytest.mark.parametrize(("language", "path"), FEEDS)
def test_atom_feeds_are_valid(client, site, language, path):
    url = path + ".atom"
    feed = fetch(client, url)
    assert feed.tag == f"{ATOM}feed"
    assert feed.get(XML_LANG) == language
    assert one(feed, f"{ATOM}title").text
    assert one(feed, f"{ATOM}id").text.startswith(SITE + "/")
    assert RFC3339.fullmatch(one(feed, f"{ATOM}updated").text)
    assert_atom_author(feed)
    assert self_link(feed, f"{ATOM}link") == {
        "rel": "self",
        "type": "application/atom+xml",
        "href": SITE + url,
    }
    entries = feed.findall(f"{ATOM}entry")
    assert entries
    ids = [one(entry, f"{ATOM}id").text for entry in entries]
    assert len(set(ids)) == len(ids)
    for entry in entries:
        assert TAG_URI.fullmatch(one(entry, f"{ATOM}id").text)
        assert one(entry, f"{ATOM}title").text
        assert RFC3339.fullmatch(one(entry, f"{ATOM}updated").text)
        assert RFC3339.fullmatch(one(entry, f"{ATOM}published").text)
        assert_atom_author(entry)
        assert one(entry, f"{ATOM}link").get("href").startswith(SITE + PREFIXES[language] + "/incidents/")
        assert one(entry, f"{ATOM}summary").get("type") == "html"


@pytest.mark.parametrize(("language", "path"), FEEDS)
def test_rss_feeds_are_valid(client, site, language, path):
    url = path + ".rss"
    rss = fetch(client, url)
    assert rss.tag == "rss" and rss.get("version") == "2.0"
    channel = one(rss, "channel")
    assert one(channel, "title").text and one(channel, "description").text
    assert one(channel, "link").text.startswith(SITE + "/")
    assert one(channel, "language").text == language
    assert RFC822.fullmatch(one(channel, "lastBuildDate").text)
    assert self_link(channel, f"{ATOM}link") == {
        "rel": "self",
        "type": "application/rss+xml",
        "href": SITE + url,
    }
    items = channel.findall("item")
    assert items
    for item in items:
        guid = one(item, "guid")
        assert guid.get("isPermaLink") == "false" and TAG_URI.fullmatch(guid.text)
        assert RFC822.fullmatch(one(item, "pubDate").text)
        assert one(item, "title").text and one(item, "description").text
        assert one(item, "link").text.startswith(SITE + PREFIXES[language] + "/incidents/")


def test_ids_stay_the_same_when_an_update_is_edited(client, site, admin):
    def ids_by_link(url):
        feed = fetch(client, url)
        return {
            one(entry, f"{ATOM}link").get("href"): one(entry, f"{ATOM}id").text
            for entry in feed.findall(f"{ATOM}entry")
        }

    before = ids_by_link("/ru/history.atom")
    update = site["current"].updates.order_by("created_at").first()
    edit_update(
        update,
        EditUpdate(language=update.original_language, text="Edited.", expected_version=update.version),
        actor=admin,
    )
    after = fetch(client, "/ru/history.atom")
    assert any("Edited." in (e.text or "") for e in after.iter(f"{ATOM}summary"))
    assert ids_by_link("/ru/history.atom") == before
