"""The metric charts of the component and incident pages and the status board's 24-hour lines
in Chromium: each says the value of the point under the pointer or picked by the keyboard, in a
tip on the page and in the focused chart's name and value, and stays accessible while it does."""

import datetime as dt

import pytest
from django.utils import timezone

from incidents.services.metrics import NewSample, record_samples
from tests.browser.conftest import css, serious_axe_violations, use_color_scheme, use_viewport, wait
from tests.browser.test_editor_board import log_in
from tests.public.conftest import build_site
from tests.public.test_chart_readouts import record_delayed_webhooks

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHARTS = {
    "component": ("/components/webhook-delivery/", 'figure[id$="-24h"] .chart-plot'),
    "component-90d": ("/components/webhook-delivery/", 'figure[id$="-90d"] .chart-plot'),
    "incident": (None, ".line-chart .chart-plot"),
    "board": ("/editor/", ".metric-spark"),
}


@pytest.fixture
def pages(settings, admin):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0
    site = build_site(admin)
    # Two earlier days, so the 90 days' chart has more than today's point.
    record_samples(
        [
            NewSample(site["delay"], value, timezone.now() - dt.timedelta(days=days))
            for days, value in ((5, 4.0), (2, 3.0))
        ]
    )
    incident, _metric = record_delayed_webhooks(admin)
    return {"incident": f"/incidents/{incident.slug}/"}


def readout(browser) -> str:
    return browser.execute_script(
        "const tip = document.querySelector('.chart-readout');"
        "return tip && tip.isConnected && tip.offsetParent ? tip.textContent : ''"
    )


def open_chart(browser, live_server, pages, chart: str):
    path, selector = CHARTS[chart]
    if chart == "board":
        log_in(browser, live_server, "ada")
    browser.get(live_server.url + (path or pages[chart]))
    holder = wait(browser, lambda driver: css(driver, selector + "[data-readout]"))
    texts = browser.execute_script(
        "return JSON.parse(arguments[0].querySelector('svg').dataset.readouts)", holder
    )
    return holder, texts


@pytest.mark.parametrize("chart", CHARTS)
def test_a_chart_reads_out_the_point_under_the_pointer(browser, live_server, pages, chart):
    from selenium.webdriver.common.action_chains import ActionChains

    use_viewport(browser, 1280)
    holder, texts = open_chart(browser, live_server, pages, chart)
    svg = holder.find_element("css selector", "svg")

    ActionChains(browser).move_to_element_with_offset(svg, -svg.size["width"] // 2 + 1, 0).perform()
    first = wait(browser, lambda driver: readout(driver))
    ActionChains(browser).move_to_element_with_offset(svg, svg.size["width"] // 2 - 1, 0).perform()
    last = wait(browser, lambda driver: readout(driver) != first and readout(driver))

    assert (first, last) == (texts[0], texts[-1])
    ActionChains(browser).move_to_element(css(browser, "h1")).perform()
    wait(browser, lambda driver: readout(driver) == "")


@pytest.mark.parametrize("chart", CHARTS)
def test_a_chart_reads_out_the_point_picked_by_the_keyboard_in_its_name_and_value(
    browser, live_server, pages, chart
):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    use_viewport(browser, 1280)
    holder, texts = open_chart(browser, live_server, pages, chart)
    browser.execute_script("arguments[0].focus()", holder)
    latest = wait(browser, lambda driver: readout(driver))
    ActionChains(browser).send_keys(Keys.HOME).perform()
    earliest = wait(browser, lambda driver: readout(driver) != latest and readout(driver))
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT).perform()
    second = wait(browser, lambda driver: readout(driver) != earliest and readout(driver))

    focused = browser.switch_to.active_element
    assert focused.get_attribute("role") == "slider"
    assert (latest, earliest, second) == (texts[-1], texts[0], texts[1])
    assert focused.get_attribute("aria-valuetext") == second
    assert second in focused.accessible_name
    # A dot marks the latest point with a value on the line, on the hairline, inside the chart.
    measured = max(index for index, text in enumerate(texts) if not text.endswith("no data"))
    ActionChains(browser).send_keys(Keys.END, *[Keys.ARROW_LEFT] * (len(texts) - 1 - measured)).perform()
    wait(browser, lambda driver: readout(driver) == texts[measured])
    dot, hairline, chart = browser.execute_script(
        "const box = e => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2, r.top, r.bottom]; };"
        "return [box(document.querySelector('.chart-readout-dot')), box(arguments[0].querySelector('svg .cursor')),"
        " box(arguments[0].querySelector('svg'))]",
        holder,
    )
    assert abs(dot[0] - hairline[0]) < 1.5
    assert chart[2] <= dot[1] <= chart[3]


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_component_and_incident_pages_with_a_readout_shown_have_no_serious_accessibility_violations(
    browser, live_server, pages, width, scheme
):
    use_viewport(browser, width)
    for chart in ("component", "incident"):
        holder, _texts = open_chart(browser, live_server, pages, chart)
        use_color_scheme(browser, scheme)
        browser.execute_script("arguments[0].focus()", holder)
        wait(browser, lambda driver: readout(driver))

        assert serious_axe_violations(browser) == [], chart
        overflow = browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, chart
