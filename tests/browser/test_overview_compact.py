"""The demo's overview as a first-time visitor gets it in Chromium: short enough to take in (its
height measured at desktop and phone widths), groups folded unless something in them is wrong
and folded or unfolded as the visitor last left them, statuses in one column, each metric on
one line on a desktop, and charts that say the value under the pointer or the keyboard."""

import re

import pytest

from tests.browser.conftest import css, serious_axe_violations, use_color_scheme, use_viewport, wait

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What a visitor scrolls through on the demo's 12 components, groups as served.
HEIGHT_BUDGETS = {1280: 2_500, 390: 3_500}

GROUPS_OPEN = """
return Object.fromEntries([...document.querySelectorAll('details.group')].map(
  group => [group.querySelector('h3').textContent.trim(), group.open]));
"""

# The left edge (desktop) or right edge (phone) of every status a visitor can see: each open
# group's summary, each component's, each metric's verdict.
STATUS_EDGES = """
const side = arguments[0];
return [...document.querySelectorAll(
    'details.group > summary .badge, details.group[open] .component-head .badge, details.group[open] .metric-verdict .badge')]
  .map(badge => Math.round(badge.getBoundingClientRect()[side]));
"""

# How many lines the tallest text of each metric's row takes.
METRIC_LINES = """
return [...document.querySelectorAll('details.group[open] .metric')].map(row => {
  const cells = [...row.querySelectorAll('.metric-name, .metric-value, .metric-limit, .metric-verdict, .metric-age')];
  return [row.querySelector('.metric-name').textContent.trim().replace(/\\s+/g, ' '), Math.max(...cells.map(cell =>
    cell.getBoundingClientRect().height / parseFloat(getComputedStyle(cell).lineHeight)))];
});
"""


@pytest.fixture
def demo(settings, demo_loaded):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0


def first_visit(browser, url: str, width: int) -> None:
    use_viewport(browser, width)
    browser.get(url)
    browser.execute_script("localStorage.clear()")
    browser.get(url)


@pytest.mark.parametrize("width", [1280, 390])
def test_the_demos_overview_fits_its_height_budget_as_a_first_time_visitor_sees_it(
    browser, live_server, demo, width
):
    first_visit(browser, live_server.url + "/", width)

    height = browser.execute_script("return document.documentElement.scrollHeight")
    opened = browser.execute_script(GROUPS_OPEN)

    assert height <= HEIGHT_BUDGETS[width], f"{height}px at {width}px; groups open: {opened}"
    assert True in opened.values() and False in opened.values(), opened


def test_statuses_stand_in_one_column_and_each_metric_on_one_line_on_a_desktop(browser, live_server, demo):
    first_visit(browser, live_server.url + "/", 1280)
    browser.execute_script("document.querySelectorAll('details.group').forEach(g => g.open = true)")

    lefts = browser.execute_script(STATUS_EDGES, "left")
    lines = browser.execute_script(METRIC_LINES)

    assert len(lefts) > 12 and max(lefts) - min(lefts) <= 1, lefts
    assert lines and [name for name, count in lines if count > 1.2] == [], lines


def test_statuses_keep_one_column_on_a_phone(browser, live_server, demo):
    first_visit(browser, live_server.url + "/", 390)
    browser.execute_script("document.querySelectorAll('details.group').forEach(g => g.open = true)")

    rights = browser.execute_script(STATUS_EDGES, "right")

    assert len(rights) > 12 and max(rights) - min(rights) <= 1, rights


def test_a_groups_folded_or_unfolded_state_is_remembered_after_a_reload(browser, live_server, demo):
    first_visit(browser, live_server.url + "/", 1280)
    served = browser.execute_script(GROUPS_OPEN)
    folded = next(name for name, is_open in served.items() if not is_open)
    unfolded = next(name for name, is_open in served.items() if is_open)

    for name in (folded, unfolded):
        summary = browser.execute_script(
            "return [...document.querySelectorAll('details.group > summary')]"
            ".find(s => s.querySelector('h3').textContent.trim() === arguments[0])",
            name,
        )
        summary.click()
    browser.refresh()

    again = wait(browser, lambda driver: driver.execute_script(GROUPS_OPEN))
    assert again[folded] is True and again[unfolded] is False
    assert {name: is_open for name, is_open in again.items() if name not in (folded, unfolded)} == {
        name: is_open for name, is_open in served.items() if name not in (folded, unfolded)
    }


def readout(browser) -> str:
    return browser.execute_script(
        "const tip = document.querySelector('.chart-readout');"
        "return tip && tip.isConnected && tip.offsetParent ? tip.textContent : ''"
    )


def test_a_24_hour_line_reads_out_the_hour_under_the_pointer(browser, live_server, demo):
    from selenium.webdriver.common.action_chains import ActionChains

    first_visit(browser, live_server.url + "/", 1280)
    line = css(browser, "details.group[open] .metric-spark[data-readout]")
    hours = browser.execute_script(
        "return JSON.parse(arguments[0].querySelector('svg').dataset.readouts)", line
    )

    ActionChains(browser).move_to_element_with_offset(line, -line.size["width"] // 2 + 1, 0).perform()
    first = wait(browser, lambda driver: readout(driver))
    ActionChains(browser).move_to_element_with_offset(line, line.size["width"] // 2 - 1, 0).perform()
    last = wait(browser, lambda driver: readout(driver) != first and readout(driver))

    assert len(hours) == 24
    assert (first, last) == (hours[0], hours[-1])
    assert re.fullmatch(r"\d\d:00: .+", last), last
    ActionChains(browser).move_to_element(css(browser, "h1")).perform()
    wait(browser, lambda driver: readout(driver) == "")


def test_a_24_hour_line_reads_out_the_focused_hour_in_its_name_and_on_the_page(browser, live_server, demo):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    first_visit(browser, live_server.url + "/", 1280)
    line = css(browser, "details.group[open] .metric-spark[data-readout]")
    hours = browser.execute_script(
        "return JSON.parse(arguments[0].querySelector('svg').dataset.readouts)", line
    )
    # The element just before it in Tab order: the metric's component's name.
    browser.execute_script("arguments[0].closest('.component').querySelector('a.name').focus()", line)

    ActionChains(browser).send_keys(Keys.TAB).perform()
    focused = browser.switch_to.active_element
    now = wait(browser, lambda driver: readout(driver))
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    before = wait(browser, lambda driver: readout(driver) != now and readout(driver))

    assert focused.get_attribute("role") == "slider"
    assert (now, before) == (hours[-1], hours[-2])
    assert before in focused.accessible_name
    assert focused.get_attribute("aria-valuetext") == before
    ActionChains(browser).send_keys(Keys.TAB).perform()
    wait(browser, lambda driver: readout(driver) != before)


def test_a_day_of_the_bars_reads_out_its_text_under_the_pointer_and_on_keyboard_focus(
    browser, live_server, demo
):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    first_visit(browser, live_server.url + "/", 1280)
    find_days = (
        "return [...document.querySelector('details.group[open] ol.days')"
        ".querySelectorAll(':scope > li > :is(a, span)')]"
    )
    days = browser.execute_script(find_days)  # a quiet day is text until a day is reached for

    ActionChains(browser).move_to_element(days[10]).perform()
    pointed = wait(browser, lambda driver: readout(driver))
    assert pointed == days[10].get_attribute("textContent")
    browser.execute_script("arguments[0].focus()", days[-1])  # the bar's one Tab stop: today
    today = wait(browser, lambda driver: readout(driver) != pointed and readout(driver))
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    yesterday = wait(browser, lambda driver: readout(driver) != today and readout(driver))

    days = browser.execute_script(find_days)
    assert (today, yesterday) == (
        days[-1].get_attribute("textContent"),
        days[-2].get_attribute("textContent"),
    )
    assert browser.switch_to.active_element.accessible_name == yesterday


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_unfolded_overview_with_a_readout_shown_has_no_serious_accessibility_violations(
    browser, live_server, demo, width, scheme
):
    first_visit(browser, live_server.url + "/", width)
    use_color_scheme(browser, scheme)
    browser.execute_script("document.querySelectorAll('details.group').forEach(g => g.open = true)")
    browser.execute_script("document.querySelector('.metric-spark[data-readout]').focus()")
    wait(browser, lambda driver: readout(driver))

    assert serious_axe_violations(browser) == []
    overflow = browser.execute_script(
        "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
