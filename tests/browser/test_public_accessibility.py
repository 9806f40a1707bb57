"""The public pages as visitors meet them in Chromium: no serious or critical axe-core finding
on any page at desktop and phone widths, in light and dark; the theme toggle remembered across
reloads and the system's dark preference honoured without it."""

import pytest

from incidents.models import Component, Incident
from tests.browser.conftest import serious_axe_violations, use_color_scheme, use_viewport

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DARK_BACKGROUND = "rgb(13, 17, 23)"
LIGHT_BACKGROUND = "rgb(255, 255, 255)"


@pytest.fixture
def demo(settings, demo_loaded):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0
    open_incident = Incident.objects.published().open().exclude(status="scheduled").first()
    return {
        "component": Component.objects.order_by("position", "pk").first().slug,
        "incident": (open_incident or Incident.objects.published().first()).slug,
    }


def public_pages(demo) -> list[str]:
    return [
        "/",
        f"/components/{demo['component']}/",
        f"/incidents/{demo['incident']}/",
        "/history/",
        "/uptime/",
        "/maintenance/",
        "/subscribe/",
    ]


def background(browser) -> str:
    return browser.execute_script("return getComputedStyle(document.body).backgroundColor")


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_public_pages_have_no_serious_accessibility_violations(browser, live_server, demo, width, scheme):
    use_viewport(browser, width)
    use_color_scheme(browser, scheme)
    found = {}
    for path in public_pages(demo):
        browser.get(live_server.url + path)
        assert background(browser) == (DARK_BACKGROUND if scheme == "dark" else LIGHT_BACKGROUND), path
        violations = serious_axe_violations(browser)
        if violations:
            found[path] = violations
        overflow = browser.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at {width}px"
    assert found == {}


def test_a_chosen_dark_theme_survives_a_reload_before_any_click(browser, live_server, demo):
    from selenium.webdriver.common.by import By

    use_color_scheme(browser, "light")
    browser.get(live_server.url + "/")
    assert background(browser) == LIGHT_BACKGROUND
    toggle = browser.find_element(By.CSS_SELECTOR, "[data-theme-toggle]")
    assert toggle.is_displayed()
    toggle.click()  # from the system's light look, the first click chooses dark
    assert browser.execute_script("return localStorage.getItem('theme')") == "dark"
    assert background(browser) == DARK_BACKGROUND

    browser.get(live_server.url + "/history/")
    assert browser.execute_script("return document.documentElement.dataset.theme") == "dark"
    assert background(browser) == DARK_BACKGROUND
    label = browser.find_element(By.CSS_SELECTOR, "[data-theme-label]").get_attribute("textContent")
    assert label == "Theme: dark"

    browser.find_element(By.CSS_SELECTOR, "[data-theme-toggle]").click()  # light, chosen
    assert browser.execute_script("return localStorage.getItem('theme')") == "light"
    browser.find_element(By.CSS_SELECTOR, "[data-theme-toggle]").click()  # back to the system's
    assert browser.execute_script("return localStorage.getItem('theme')") is None
    browser.refresh()
    assert browser.execute_script("return document.documentElement.hasAttribute('data-theme')") is False


def test_the_system_dark_preference_applies_without_a_choice(browser, live_server, demo):
    use_color_scheme(browser, "dark")
    browser.get(live_server.url + "/")
    browser.execute_script("localStorage.removeItem('theme')")
    browser.refresh()
    assert browser.execute_script("return document.documentElement.hasAttribute('data-theme')") is False
    assert background(browser) == DARK_BACKGROUND


def test_a_chosen_light_theme_wins_over_the_system_dark_preference(browser, live_server, demo):
    use_color_scheme(browser, "dark")
    browser.get(live_server.url + "/")
    browser.execute_script("localStorage.setItem('theme', 'light')")
    browser.refresh()
    assert background(browser) == LIGHT_BACKGROUND
