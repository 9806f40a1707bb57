"""The overview's groups as served: each a fold that is open only when something in it is not
operational, its worst status and counts on the fold, every status in one column, and the
24-hour lines carrying what they say of each hour."""

import json
import re
from html.parser import HTMLParser

import pytest

from incidents.models import ComponentStatus
from incidents.services.components import set_component_status

pytestmark = pytest.mark.django_db

INTERACTIVE = {"a", "button", "input", "select", "textarea", "details", "label", "iframe", "embed"}


def squeeze(html: str) -> str:
    html = re.sub(r'<span class="icon" data-icon="([^"]*)"[^>]*></span>', r"\1", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def groups_of(page: str) -> dict[str, tuple[bool, str]]:
    """Each group's name: whether it is served open, and its fold's text."""
    found = {}
    for opening, summary in re.findall(
        r'(<details class="group"[^>]*>)\s*<summary>(.*?)</summary>', page, re.S
    ):
        name = squeeze(re.search(r"<h3>(.*?)</h3>", summary, re.S).group(1))
        found[name] = (" open" in opening, squeeze(summary))
    return found


def test_each_group_is_a_fold_with_its_worst_status_and_counts_open_only_when_something_is_wrong(
    client, site, admin
):
    set_component_status(site["api"], status=ComponentStatus.OPERATIONAL, actor=admin)
    set_component_status(site["email"], status=ComponentStatus.PARTIAL_OUTAGE, actor=admin)

    groups = groups_of(client.get("/").content.decode())

    assert groups == {
        "Core": (False, "Core 1 component ✓ Operational"),
        "Delivery": (True, "Delivery 1 of 2 components affected ◆ Partial outage"),
    }


def test_a_group_with_a_component_in_an_outage_or_under_maintenance_is_served_open(client, site, admin):
    before = groups_of(client.get("/").content.decode())
    set_component_status(site["webhooks"], status=ComponentStatus.UNDER_MAINTENANCE, actor=admin)

    after = groups_of(client.get("/").content.decode())

    assert before == {
        "Core": (True, "Core 1 of 1 component affected ✕ Major outage"),
        "Delivery": (False, "Delivery 2 components ✓ Operational"),
    }
    assert after["Delivery"] == (True, "Delivery 1 of 2 components affected ⚙ Under maintenance")


def test_every_group_is_folded_when_all_is_operational_also_in_russian(client, site, admin):
    set_component_status(site["api"], status=ComponentStatus.OPERATIONAL, actor=admin)

    groups = groups_of(client.get("/ru/").content.decode())

    assert [is_open for is_open, _text in groups.values()] == [False, False]
    assert "Ядро" in groups


def test_each_status_stands_in_the_status_column_of_its_row(client, site, admin):
    set_component_status(site["email"], status=ComponentStatus.MAJOR_OUTAGE, actor=admin)
    page = client.get("/").content.decode()

    heads = re.findall(r'<div class="component-head">(.*?)</div>', page, re.S)
    folds = re.findall(r'<details class="group"[^>]*>\s*<summary>(.*?)</summary>', page, re.S)

    assert len(heads) == 3 and len(folds) == 2
    for part in heads + folds:
        in_column = re.findall(r'<span class="status-column"[^>]*><span class="badge [^"]*">', part)
        assert len(in_column) == 1 and part.count('class="badge') == 1, part
    assert "✕ Major outage" in squeeze(heads[2])


class SummaryContents(HTMLParser):
    """The tags found inside each <summary>."""

    def __init__(self):
        super().__init__()
        self.inside = 0
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "summary":
            self.inside += 1
        elif self.inside:
            self.tags.append(tag)
            if dict(attrs).get("tabindex") is not None:
                self.tags.append("tabindex")

    def handle_endtag(self, tag):
        if tag == "summary":
            self.inside -= 1


def test_a_groups_fold_holds_one_heading_and_nothing_interactive(client, site):
    contents = SummaryContents()
    contents.feed(client.get("/").content.decode())

    assert contents.tags.count("h3") == 2
    assert not INTERACTIVE.intersection(contents.tags) and "tabindex" not in contents.tags


def test_a_24_hour_line_carries_what_it_says_of_each_hour(client, site):
    page = client.get("/").content.decode()

    readouts = json.loads(
        re.search(r'<svg class="sparkline"[^>]*data-readouts="([^"]*)"', page).group(1).replace("&quot;", '"')
    )

    assert len(readouts) == 24
    # Hours in the page's zone (Europe/Oslo, UTC+1); the clock stands at 12:00 UTC, samples
    # were taken every 10 minutes over the last 3 hours, none yet in the current hour.
    assert readouts[0] == "14:00: no data"
    assert readouts[-4:] == [
        "10:00: 2.7\u00a0sec",
        "11:00: 2.1\u00a0sec",
        "12:00: 1.6\u00a0sec",
        "13:00: no data",
    ]


def test_a_24_hour_line_says_its_hours_in_the_pages_language(client, site):
    page = client.get("/ru/").content.decode()

    readouts = json.loads(
        re.search(r'<svg class="sparkline"[^>]*data-readouts="([^"]*)"', page).group(1).replace("&quot;", '"')
    )

    assert readouts[-2] == "12:00: 1,6\u00a0с"
