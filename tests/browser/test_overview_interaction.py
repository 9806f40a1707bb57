"""The overview in a real browser: a day's popover by keyboard and by touch, the page refreshing
a component's status without a reload, times in the reader's own zone, and axe-core."""

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from incidents import formatting
from incidents.lifecycle.commands import DeclareIncident, ResolveIncident, ScheduleMaintenance
from incidents.lifecycle.opening import declare_incident, schedule_maintenance
from incidents.lifecycle.updates import resolve_incident
from incidents.models import Component, ComponentGroup, Metric
from incidents.services.components import save_component, save_group, set_component_status
from incidents.services.metrics import record_sample
from tests.browser.conftest import (
    css,
    none_shown,
    serious_axe_violations,
    text_of,
    use_color_scheme,
    use_viewport,
    wait,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(admin):
    """Two components with a metric, a resolved incident five days ago, maintenance to come."""
    with time_machine.travel(timezone.now() - dt.timedelta(days=100)):
        group = save_group(ComponentGroup(slug="core", name={"en": "Core"}, position=1), actor=admin)
        api = save_component(
            Component(slug="public-api", group=group, name={"en": "Public API"}, position=1), actor=admin
        )
        email = save_component(
            Component(slug="email-delivery", group=group, name={"en": "Email delivery"}, position=2),
            actor=admin,
        )
    latency = Metric.objects.create(
        component=api, slug="latency", name={"en": "API latency"}, unit="ms", degraded_threshold=500
    )
    for minutes in range(120, 0, -10):
        record_sample(latency, value=200 + minutes, at=timezone.now() - dt.timedelta(minutes=minutes))
    past = declare_incident(
        DeclareIncident(
            title="Requests failed",
            language="en",
            body="Errors.",
            impact="major",
            component_statuses={api: "partial_outage"},
            started_at=timezone.now() - dt.timedelta(days=5),
        ),
        actor=admin,
    )
    resolve_incident(past, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=admin)
    schedule_maintenance(
        ScheduleMaintenance(
            title="Database upgrade",
            language="en",
            body="We will upgrade the **database**.",
            impact="none",
            scheduled_for=timezone.now() + dt.timedelta(days=2),
            scheduled_until=timezone.now() + dt.timedelta(days=2, hours=2),
        ),
        actor=admin,
    )
    return {"api": api, "email": email, "past": past}


def unfold(driver, group: str) -> None:
    """Opens a folded group as a visitor does, with a click on its fold."""
    driver.execute_script(
        "return [...document.querySelectorAll('details.group > summary')]"
        ".find(s => s.querySelector('h3').textContent.trim() === arguments[0])",
        group,
    ).click()


def incident_day(driver):
    """The link of the day with the past incident in the Public API's bars."""
    return driver.execute_script(
        "return document.querySelector('#component-public-api ol.days > li > ul[hidden]')"
        ".parentElement.querySelector('a');"
    )


def test_a_days_popover_opens_by_keyboard_and_its_links_come_next_in_tab_order(browser, live_server, page):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    browser.get(live_server.url + "/")
    unfold(browser, "Core")  # all operational: served folded
    today = css(browser, "#component-public-api ol.days > li:last-child > a")
    in_bar = "return !!document.activeElement.closest('#component-public-api ol.days')"
    css(browser, "#component-public-api .name").send_keys(Keys.TAB)
    for _ in range(10):
        if browser.execute_script(in_bar):
            break
        ActionChains(browser).send_keys(Keys.TAB).perform()
    assert browser.switch_to.active_element == today  # one stop for Tab: today; arrows for the rest
    ActionChains(browser).send_keys(Keys.TAB).perform()
    assert not browser.execute_script(in_bar)
    today.send_keys(Keys.HOME)
    first = (timezone.now().astimezone(formatting.status_zone()) - dt.timedelta(days=89)).date().isoformat()
    # A quiet day: the page gives it no link, the script its day's own.
    assert browser.switch_to.active_element.get_attribute("href") == (
        f"{live_server.url}/history/?from={first}&to={first}&component=public-api"
    )
    assert browser.switch_to.active_element.get_attribute("tabindex") == "0"
    day = incident_day(browser)
    browser.execute_script("arguments[0].focus()", day)

    ActionChains(browser).send_keys(Keys.ENTER).perform()

    popover = wait(browser, lambda _: css(browser, ".day-popover"))
    assert day.get_attribute("aria-expanded") == "true"
    assert "1 incident" in popover.text
    assert "Requests failed" in popover.text and "This day in the history" in popover.text
    assert browser.current_url == live_server.url + "/"  # opened, not followed
    ActionChains(browser).send_keys(Keys.TAB).perform()
    assert browser.switch_to.active_element.text == "Requests failed"
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    assert none_shown(browser, ".day-popover")
    assert browser.switch_to.active_element == day


def test_a_days_popover_opens_by_touch_on_a_phone_with_fewer_wider_days(browser, live_server, page):
    use_viewport(browser, 390)
    browser.get(live_server.url + "/")
    unfold(browser, "Core")
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#component-public-api ol.days > li')].filter(li => li.offsetParent)"
        ".map(li => li.getBoundingClientRect().width)"
    )
    assert len(shown) == 30 and min(shown) >= 8
    day = incident_day(browser)
    box = browser.execute_script(
        "arguments[0].scrollIntoView({block: 'center'}); const r = arguments[0].getBoundingClientRect();"
        "return [r.x + r.width / 2, r.y + r.height / 2];",
        day,
    )
    point = [{"x": box[0], "y": box[1]}]
    browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point})
    browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    popover = wait(browser, lambda _: css(browser, ".day-popover"))
    assert "Requests failed" in popover.text
    assert browser.current_url == live_server.url + "/"
    inside = browser.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return r.left >= 0 && r.right <= window.innerWidth;",
        popover,
    )
    assert inside


def test_a_quiet_day_served_as_text_opens_a_popover_leading_to_that_days_history(browser, live_server, page):
    from selenium.webdriver.common.action_chains import ActionChains

    browser.get(live_server.url + "/")
    unfold(browser, "Core")
    quiet = css(browser, "#component-public-api ol.days > li:nth-child(80) > span")
    said = quiet.get_attribute("textContent")

    ActionChains(browser).move_to_element(quiet).click().perform()

    popover = wait(browser, lambda _: css(browser, ".day-popover"))
    day = (timezone.now().astimezone(formatting.status_zone()) - dt.timedelta(days=10)).date().isoformat()
    assert popover.text.startswith(said)
    history = popover.find_element("link text", "This day in the history")
    assert (
        history.get_attribute("href")
        == f"{live_server.url}/history/?from={day}&to={day}&component=public-api"
    )
    assert browser.current_url == live_server.url + "/"


def test_the_page_refreshes_a_components_status_without_a_reload(browser, live_server, page, admin):
    browser.get(live_server.url + "/")
    core = css(browser, "details.group")
    assert core.get_attribute("open") is None  # all operational: folded
    assert "Operational" in text_of(browser, "details.group > summary .badge")
    browser.execute_script("window.notReloaded = true;")

    set_component_status(page["email"], status="major_outage", actor=admin)
    browser.execute_script("document.dispatchEvent(new Event('refresh:now'))")

    wait(browser, lambda _: "Major outage" in text_of(browser, "#component-email-delivery .badge"))
    assert browser.execute_script("return window.notReloaded") is True
    assert "Major" in css(browser, ".banner").text
    # The group says so on its fold and opens, as it would be served now.
    assert "Major outage" in text_of(browser, "details.group > summary .badge")
    wait(browser, lambda _: core.get_attribute("open") is not None)
    assert css(browser, "#component-email-delivery .badge").is_displayed()


def test_times_show_in_the_readers_zone_on_request_and_the_choice_is_remembered(browser, live_server, page):
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "America/New_York"})
    browser.get(live_server.url + "/")
    window = ".maintenance-line summary .window"  # its two ends, each a <time data-local>
    served = css(browser, window).text
    assert "GMT+01:00" in served or "GMT+02:00" in served  # the page's zone, Europe/Oslo
    toggle = css(browser, "#local-time-toggle")
    assert toggle.is_displayed() and toggle.get_attribute("aria-pressed") == "false"

    toggle.click()

    assert toggle.get_attribute("aria-pressed") == "true"
    local = css(browser, window).text
    assert local != served and ("EST" in local or "EDT" in local)
    browser.refresh()
    assert css(browser, "#local-time-toggle").get_attribute("aria-pressed") == "true"
    assert css(browser, window).text == local
    css(browser, "#local-time-toggle").click()
    assert css(browser, window).text == served


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_overview_has_no_serious_axe_violations(browser, live_server, page, width, scheme):
    use_color_scheme(browser, scheme)
    use_viewport(browser, width)
    browser.get(live_server.url + "/")
    css(browser, ".maintenance-line summary").click()  # the folded body is checked too
    unfold(browser, "Core")

    assert serious_axe_violations(browser) == []
