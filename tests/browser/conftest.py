"""Headless Debian Chromium driven by Selenium through chromium-driver.

Tests marked `browser` skip with a reason when Chromium or its driver is missing (install them
with scripts/ci-install-browser), and fail instead under REQUIRE_SERVICES=1, as in CI.
"""

import os
import shutil

import pytest

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"
CHROMIUM = os.environ.get("CHROMIUM_BINARY", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BINARY", "/usr/bin/chromedriver")
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1280,1600",
)


def _browser_missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (os.path.isfile(path) and os.access(path, os.X_OK)) and not shutil.which(path):
            return f"needs {path}: run scripts/ci-install-browser (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "needs the selenium package (requirements.txt)"
    return None


def pytest_runtest_setup(item):
    if item.get_closest_marker("browser"):
        reason = _browser_missing()
        if reason and REQUIRE_SERVICES:
            pytest.fail(f"REQUIRE_SERVICES=1 but this browser test {reason}")
        if reason:
            pytest.skip(reason)


@pytest.fixture
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument("--lang=en")
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(30)
    driver.implicitly_wait(2)
    yield driver
    driver.quit()


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
