"""Headless Debian Chromium driven by Selenium through chromium-driver.

Tests marked `browser` skip with a reason when Chromium or its driver is missing (install them
with scripts/ci-install-browser), and fail instead under REQUIRE_SERVICES=1, as in CI.
"""

import contextlib
import os
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

from .demo_copy import PostgresCopy, SqliteCopy, copy_of_database

try:
    from selenium.common.exceptions import StaleElementReferenceException

    # What waits ignore: an element the page replaced while the condition read it (a refresh, a
    # navigation) is not there yet, and the next poll reads the new one.
    STALE: tuple[type[Exception], ...] = (StaleElementReferenceException,)
except ImportError:  # without selenium the browser tests skip
    STALE = ()

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
CHROMIUM = os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BINARY", "/usr/bin/chromedriver")
WINDOW_SIZE = (1280, 1600)
IMPLICIT_WAIT_SECONDS = 2
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    f"--window-size={WINDOW_SIZE[0]},{WINDOW_SIZE[1]}",
)


AXE_SCRIPT = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"


def _browser_missing() -> str | None:
    if not AXE_SCRIPT.is_file():
        return "needs axe-core: run scripts/ci-install-browser (npm ci --prefix tests/browser)"
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)) and not shutil.which(path):
            return f"needs {path}: run scripts/ci-install-browser (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "needs the selenium package (requirements-dev.txt)"
    return None


def pytest_runtest_setup(item):
    if item.get_closest_marker("browser"):
        reason = _browser_missing()
        if reason and REQUIRE_SERVICES:
            pytest.fail(f"REQUIRE_SERVICES=1 but this browser test {reason}")
        if reason:
            pytest.skip(reason)


# What a test may have changed in the tab it was given, put back as a new browser has it.
EMULATION_RESETS = (
    ("Emulation.clearDeviceMetricsOverride", {}),
    ("Emulation.setTouchEmulationEnabled", {"enabled": False}),
    ("Emulation.setEmulatedMedia", {"media": "", "features": []}),
    ("Emulation.setTimezoneOverride", {"timezoneId": ""}),
)


def start_chromium():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument("--lang=en")
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


def as_new(driver) -> None:
    """Leaves one tab, blank, with none of an earlier test's cookies, storage, cached responses,
    emulated screen, colour scheme or time zone, and the default timeouts and window size."""
    from selenium.webdriver.common.actions.action_builder import ActionBuilder

    first, *others = driver.window_handles
    for handle in others:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(first)
    driver.get("about:blank")
    ActionBuilder(driver).clear_actions()  # releases keys and buttons a test left pressed
    driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": "*", "storageTypes": "all"})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    for command, arguments in EMULATION_RESETS:
        driver.execute_cdp_cmd(command, arguments)
    driver.set_window_size(*WINDOW_SIZE)
    driver.set_page_load_timeout(30)
    driver.set_script_timeout(30)
    driver.implicitly_wait(IMPLICIT_WAIT_SECONDS)


@pytest.fixture(scope="session")
def _chromium(live_server):
    """One Chromium for the test process: starting one costs seconds, handing it over as new a
    fraction of one (docs/bench/tests.md). A holder, so one that stops answering is replaced.
    It quits before the live server stops, closing the connections it keeps open to it."""
    holder = {}
    yield holder
    if "driver" in holder:
        holder["driver"].quit()


@pytest.fixture
def browser(_chromium):
    """The process's Chromium, as a new one would be (see as_new). It is put back right after
    the test, before the database is emptied: a page left open would go on asking the live
    server for its refreshes meanwhile."""
    if "driver" not in _chromium:
        _chromium["driver"] = start_chromium()
        as_new(_chromium["driver"])
    yield _chromium["driver"]
    try:
        as_new(_chromium["driver"])
    except Exception:  # the test left it closed, crashed or behind a dialog: the next gets another
        with contextlib.suppress(Exception):
            _chromium.pop("driver").quit()


def serious_axe_violations(driver) -> list[str]:
    """Runs axe-core (WCAG 2.0-2.2 A/AA rules, touch target size among them) on the page the
    browser shows; returns the serious and critical violations as readable lines, each with the
    elements it found."""
    driver.execute_script(AXE_SCRIPT.read_text(encoding="utf-8"))
    driver.set_script_timeout(60)
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']}})"
        ".then(r => done(r.violations)).catch(e => done([{id: 'axe-error', impact: 'critical',"
        " help: String(e), nodes: []}]));"
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:5]}"
        for v in result
        if v["impact"] in ("serious", "critical")
    ]


def wait(driver, condition, seconds: float = 15):
    """Polls `condition(driver)` until it is true or returns an element (an element missing or
    replaced meanwhile is looked for again at the next poll); returns what it returned."""
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, seconds, poll_frequency=0.2, ignored_exceptions=STALE).until(condition)


def css(driver, selector: str):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, selector)


def none_shown(driver, selector: str) -> bool:
    """Whether no element matches now. Without the implicit wait, a check that something is
    absent would wait its whole length on every passing run."""
    driver.implicitly_wait(0)
    try:
        return not driver.find_elements("css selector", selector)
    finally:
        driver.implicitly_wait(IMPLICIT_WAIT_SECONDS)


def text_of(driver, css: str) -> str:
    """An element's text read in one step inside the page. A page that refreshes its parts or
    navigates (after a submit) can replace an element between finding it and reading it, which
    the driver reports as stale or as a node that "does not belong to the document"."""
    return driver.execute_script("return document.querySelector(arguments[0])?.innerText ?? ''", css)


def use_color_scheme(driver, scheme: str) -> None:
    """Makes the page see prefers-color-scheme: light or dark, as the visitor's system would set it."""
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]}
    )


def use_viewport(driver, width: int, height: int = 900) -> None:
    """A phone or desktop viewport of that CSS width, with touch on narrow ones."""
    mobile = width < 600
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
    )
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": mobile})


# This process's copy of the test database right after its first demo load.
_demo_copy: SqliteCopy | PostgresCopy | None = None


@pytest.fixture
def demo_loaded(transactional_db):
    """The demo data as `make run` loads it: the first test in a process loads it and keeps a
    copy of the database; later ones restore the copy."""
    global _demo_copy
    if _demo_copy is None:
        call_command("load_demo", verbosity=0)
        _demo_copy = copy_of_database()
    else:
        _demo_copy.restore()
