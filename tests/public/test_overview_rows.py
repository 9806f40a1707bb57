"""The overview as a reader scans it: one row per metric, day bars that say more than colour,
maintenance one line each, and a page that answers 304 to its own refresh when nothing changed."""

import datetime as dt
import re

import pytest
import time_machine

from incidents.models import ComponentStatus
from incidents.services.components import set_component_status

pytestmark = pytest.mark.django_db


def squeeze(html: str) -> str:
    """Text without tags, with the status shapes CSS draws from data-icon."""
    html = re.sub(r'<span class="icon" data-icon="([^"]*)"[^>]*></span>', r"\1", html)
    return re.sub(r"[ \t\n]+", " ", re.sub(r"<[^>]+>", " ", html)).strip()


def metric_row(page: str) -> str:
    """The text of the webhook delay's row, without the 24-hour line's description."""
    row = re.search(r'<div class="metric">(.*?)<span class="metric-spark">(.*?)</span>\s*</div>', page, re.S)
    assert row, "no metric row"
    return squeeze(row.group(1) + row.group(2).split("<svg")[0])


def days_of(page: str, component: str) -> str:
    found = re.search(
        rf'<li class="component" id="component-{component}".*?<ol class="days"[^>]*>(.*?)</ol>', page, re.S
    )
    assert found, f"no day bars for {component}"
    return found.group(1)


def without_incidents(days: str) -> str:
    """The bar's own days, without the incident lists hidden beside them for the popover."""
    return re.sub(r"<ul hidden>.*?</ul>", "", days)


def at_the_delay_sample(client, site, path: str) -> str:
    with time_machine.travel(site["delay"].latest_at + dt.timedelta(seconds=40), tick=False):
        return client.get(path).content.decode()


def test_a_metric_row_says_value_limit_and_verdict_with_the_statistic_once(client, site):
    row = metric_row(at_the_delay_sample(client, site, "/"))

    assert row == (
        "Webhook delivery delay 95th percentile 1.8\u00a0sec limit 60.0\u00a0sec ✓ Operational 40 seconds ago"
    )


def test_a_metric_row_on_the_russian_page_has_russian_units_and_numbers(client, site):
    row = metric_row(at_the_delay_sample(client, site, "/ru/"))

    assert "1,8\u00a0с " in row
    assert "60,0\u00a0с" in row  # the limit, in the same units
    assert "sec" not in row and "1.8" not in row
    assert row.count("✓") == 1


def test_the_age_of_a_value_is_marked_for_the_refresh_script_to_keep_current(client, site):
    page = at_the_delay_sample(client, site, "/")

    assert re.search(r'<time datetime="[0-9T:-]+Z" data-age>40 seconds ago</time>', page)


def test_the_24_hour_line_draws_the_limit_and_names_it(client, site):
    page = client.get("/").content.decode()
    svg = re.search(r'<svg class="sparkline".*?</svg>', page, re.S).group(0)

    assert 'class="threshold"' in svg
    assert "; limit 60.0\u00a0sec" in svg


def test_uptime_is_said_with_two_decimals(client, site):
    page = client.get("/").content.decode()

    uptimes = re.findall(r"([\d.]+)\s?% uptime over 90 days", squeeze(page))
    assert uptimes and all(re.fullmatch(r"\d+\.\d\d", uptime) for uptime in uptimes)


def test_a_day_with_something_to_tell_links_to_that_days_history_a_quiet_day_carries_its_text(client, site):
    days = without_incidents(days_of(client.get("/").content.decode(), "webhook-delivery"))

    items = re.findall(
        r"<li(?: class=\"status-([a-z_]+)\")?><(?:span|a href=\"([^\"]+)\"[^>]*)>([^<]*)<", days
    )
    assert len(items) == 90
    linked = [(status, href) for status, href, _text in items if href]
    assert linked == [
        ("partial_outage", "/history/?from=2026-03-07&amp;to=2026-03-07&amp;component=webhook-delivery"),
        ("", "/history/?from=2026-03-10&amp;to=2026-03-10&amp;component=webhook-delivery"),  # today
    ]
    assert items[0] == ("none", "", "Dec 11, 2025: no data")  # day-bars.js links it from today's
    assert ("", "", "Mar 9, 2026: Operational") in items


def test_each_bar_is_one_tab_stop_its_last_day(client, site):
    overview = days_of(client.get("/").content.decode(), "webhook-delivery")
    component_page = re.search(
        r'<ol class="days"[^>]*>(.*?)</ol>',
        client.get("/components/webhook-delivery/").content.decode(),
        re.S,
    ).group(1)

    for days in map(without_incidents, (overview, component_page)):
        tab_stops = re.findall(r'<li(?: class="status-[a-z_]+")?><a href="([^"]+)">', days)
        assert tab_stops == ["/history/?from=2026-03-10&amp;to=2026-03-10&amp;component=webhook-delivery"]
        linked_days = re.findall(r'<li(?: class="status-[a-z_]+")?><a href=', days)
        assert days.count('tabindex="-1"') == len(linked_days) - 1 == 1  # quiet days: no link yet


def test_day_links_stay_in_the_pages_language(client, site):
    days = days_of(client.get("/ru/").content.decode(), "webhook-delivery")

    assert '<a href="/ru/history/?from=2026-03-07&amp;to=2026-03-07&amp;component=webhook-delivery"' in days


def test_each_day_carries_its_status_class_which_gives_it_its_pattern(client, site, admin):
    set_component_status(site["email"], status=ComponentStatus.UNDER_MAINTENANCE, actor=admin)
    page = client.get("/").content.decode()

    assert '<li class="status-partial_outage"><a href="/history/?from=2026-03-07' in days_of(
        page, "webhook-delivery"
    )
    assert days_of(page, "public-api").endswith(
        '<li class="status-major_outage"><a href="/history/?from=2026-03-10&amp;to=2026-03-10'
        '&amp;component=public-api">Mar 10, 2026: Major outage; 1 incident</a>'
        '<ul hidden><li><a href="/incidents/' + site["current"].slug + '/">Сбой API</a></li></ul></li>'
    )
    assert days_of(page, "email-delivery").endswith("Mar 10, 2026: Under maintenance</a></li>")
    assert "<li><span>Mar 9, 2026: Operational</span></li>" in days_of(page, "email-delivery")


def test_day_patterns_are_defined_for_every_status_in_the_stylesheet():
    css = open("static/css/site.css").read()
    overview = css[css.index("/* == Overview == */") :]
    for status in ("degraded_performance", "partial_outage", "under_maintenance"):
        rules = re.findall(rf"\.days \.status-{status} > a \{{([^}}]*)\}}", overview)
        assert any("repeating-linear-gradient" in rule for rule in rules), status
    assert re.search(r"\.days \.status-none > a \{[^}]*border:", overview)


def test_maintenance_is_one_folded_line_with_title_window_and_components(client, site):
    page = client.get("/").content.decode()

    line = re.search(r'<details class="maintenance-line">(.*?)</details>', page, re.S)
    assert line, "no maintenance line"
    summary = squeeze(re.search(r"<summary>(.*?)</summary>", line.group(1), re.S).group(1))
    assert summary.startswith("Database upgrade · Mar 12, 2026, 13:00")
    assert "We will upgrade the database." in line.group(1)  # the body, folded inside
    assert '<details class="maintenance-line" open' not in page
    assert page.index('<details class="maintenance-line">') < page.index('id="components"')


def test_the_overview_answers_its_refresh_with_304_until_something_changes(
    client, site, admin, settings, django_capture_on_commit_callbacks
):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300
    first = client.get("/")
    etag = first["ETag"]
    assert 'data-refresh-interval="30"' in first.content.decode()

    assert client.get("/", headers={"if-none-match": etag}).status_code == 304

    with django_capture_on_commit_callbacks(execute=True):
        set_component_status(site["email"], status=ComponentStatus.MAJOR_OUTAGE, actor=admin)
    changed = client.get("/", headers={"if-none-match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    row = re.search(
        r'<li class="component" id="component-email-delivery" data-refresh>.*?</div>',
        changed.content.decode(),
        re.S,
    )
    assert "Major outage" in row.group(0)


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_day_bar_colour_stands_out_from_the_page_by_3_to_1(scheme):
    """WCAG 1.4.11: the bars (and the stripes of their patterns, drawn against the page colour)."""
    css = open("static/css/site.css").read()
    tokens = css.index(":root[data-theme=dark]") if scheme == "dark" else css.index(":root {")
    block = css[tokens : css.index("}", tokens)]
    colours = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{6})", block))
    for status in ("ok", "degraded", "partial", "major", "maintenance", "none"):
        assert _contrast(colours[status], colours["bg"]) >= 3, (scheme, status)
