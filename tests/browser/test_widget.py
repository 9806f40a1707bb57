"""The one-tag widget on another site: the script puts an iframe of /widget/ where it stands, in
the language and theme its attributes ask for, and the iframe takes the widget's height."""

import functools
import http.server
import threading

import pytest

from tests.browser.conftest import serious_axe_violations, use_color_scheme, use_viewport, wait
from tests.public.conftest import build_site

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def page(admin, settings, live_server):
    settings.SITE_URL = live_server.url
    return build_site(admin)


@pytest.fixture
def other_site(tmp_path, live_server):
    """A page on another origin that embeds the widget with one tag."""
    (tmp_path / "index.html").write_text(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our product</title></head>'
        "<body><main><h1>Our product</h1>"
        f'<script src="{live_server.url}/widget.js" data-lang="ru" data-theme="dark" async></script>'
        "<p>Below the widget.</p></main></body></html>"
    )
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_script_tag_inserts_the_widget_in_its_language_and_theme(browser, page, other_site, live_server):
    from selenium.webdriver.common.by import By

    browser.get(other_site)
    frame = wait(browser, lambda b: b.find_element(By.CSS_SELECTOR, "iframe.status-widget"))

    assert frame.get_attribute("src") == f"{live_server.url}/widget/?lang=ru&theme=dark"
    assert frame.get_attribute("title")
    # Where the tag stands: right after it, before the paragraph that follows it.
    following = browser.execute_script("return arguments[0].nextElementSibling.textContent", frame)
    assert following == "Below the widget."
    # The widget says how tall it is and the iframe follows.
    wait(browser, lambda b: frame.get_attribute("style").find("px") > 0)

    browser.switch_to.frame(frame)
    link = wait(browser, lambda b: b.find_element(By.PARTIAL_LINK_TEXT, "Сбой API"))
    assert link.get_attribute("href") == f"{live_server.url}/ru/incidents/{page['current'].slug}/"
    assert link.get_attribute("target") == "_blank"
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("data-theme") == "dark"
    content_height = browser.execute_script("return document.body.getBoundingClientRect().height")
    browser.switch_to.default_content()
    assert abs(frame.size["height"] - content_height) <= 2


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_widget_page_has_no_serious_accessibility_problems(browser, page, live_server, scheme):
    use_viewport(browser, 390)
    use_color_scheme(browser, scheme)
    browser.get(f"{live_server.url}/widget/")

    assert serious_axe_violations(browser) == []
