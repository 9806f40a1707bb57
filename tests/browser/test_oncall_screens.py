"""The on-call screens at 3 a.m.: declare, post an update and resolve within the first screen at
1280×800 and on a 390×844 phone, the declare title focused, single-key shortcuts sent as real key
presses, and a quick update from the status board, on the demo's twelve components."""

import pytest

from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident
from incidents.models import Component, Incident, IncidentStatus

from .conftest import css, serious_axe_violations, text_of, use_color_scheme, use_viewport, wait
from .test_editor_board import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Where a control's top edge is, in CSS pixels from the top of the window, as the page loaded.
TOP = "return document.querySelector(arguments[0]).getBoundingClientRect().top"
BOTTOM = "return document.querySelector(arguments[0]).getBoundingClientRect().bottom"


@pytest.fixture
def rita(demo_loaded, responder):
    """A responder on the demo's page (made after the demo's database is in place)."""
    return responder


@pytest.fixture
def open_incident(rita):
    email = Component.objects.get(slug="email-delivery")
    sms = Component.objects.get(slug="sms-delivery")
    return declare_incident(
        DeclareIncident(
            title="Mail and text messages delayed",
            language="en",
            body="Messages wait in the outbound queue; we are looking into it.",
            impact="major",
            component_statuses={email: "major_outage", sms: "degraded_performance"},
        ),
        actor=rita,
    )


def at_window(browser, width: int, height: int) -> None:
    use_viewport(browser, width, height)
    browser.execute_script("window.scrollTo(0, 0)")


SCREENS = [(1280, 800), (390, 844)]


@pytest.mark.parametrize(("width", "height"), SCREENS)
def test_the_declare_button_is_on_the_first_screen(browser, live_server, rita, width, height):
    log_in(browser, live_server, rita.username)
    use_viewport(browser, width, height)
    browser.get(live_server.url + "/editor/incidents/new/")
    assert 0 <= browser.execute_script(TOP, "#declare")
    assert browser.execute_script(BOTTOM, "#declare") <= height


def test_post_update_and_resolve_are_on_the_first_screen_of_an_open_incident_at_1280(
    browser, live_server, rita, open_incident
):
    log_in(browser, live_server, rita.username)
    use_viewport(browser, 1280, 800)
    browser.get(live_server.url + f"/editor/incidents/{open_incident.pk}/")
    assert browser.execute_script(BOTTOM, "#post-update") <= 800
    assert browser.execute_script(BOTTOM, "#resolve") <= 800


def test_on_a_phone_post_update_and_the_way_to_resolve_are_on_the_first_screen(
    browser, live_server, rita, open_incident
):
    log_in(browser, live_server, rita.username)
    use_viewport(browser, 390, 844)
    browser.get(live_server.url + f"/editor/incidents/{open_incident.pk}/")
    assert browser.execute_script(BOTTOM, "#post-update") <= 844
    assert browser.execute_script(BOTTOM, "#to-resolve") <= 844
    css(browser, "#to-resolve").click()
    wait(browser, lambda b: b.execute_script(BOTTOM, "#resolve") <= 844)
    assert browser.execute_script(TOP, "#resolve-heading") >= 0


def test_the_component_list_shows_what_is_affected_and_folds_the_rest(
    browser, live_server, rita, open_incident
):
    log_in(browser, live_server, rita.username)
    use_viewport(browser, 1280, 800)
    browser.get(live_server.url + f"/editor/incidents/{open_incident.pk}/")
    shown = browser.execute_script(
        "return [...document.querySelectorAll('#update-form input[name=affected]')]"
        ".filter((box) => box.checkVisibility()).map((box) => box.value)"
    )
    assert shown == ["email-delivery", "sms-delivery"]
    summary = css(browser, "#update-form .more-components summary")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
    summary.click()
    assert (
        browser.execute_script(
            "return [...document.querySelectorAll('#update-form input[name=affected]')]"
            ".filter((box) => box.checkVisibility()).length"
        )
        == Component.objects.count()
    )


def test_the_declare_title_has_the_focus_when_the_screen_opens(browser, live_server, rita):
    log_in(browser, live_server, rita.username)
    browser.get(live_server.url + "/editor/incidents/new/")
    assert browser.execute_script("return document.activeElement.id") == "id_title"


def press(browser, *keys) -> None:
    """Real key events, as a responder's keyboard sends them, to whatever has the focus."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(*keys).perform()


def send_with_ctrl_enter(browser) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    ActionChains(browser).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()


def focused(browser) -> str:
    return browser.execute_script("const a = document.activeElement; return a.id || a.name || a.tagName")


def test_declare_update_and_resolve_from_the_keyboard_alone(browser, live_server, rita):
    log_in(browser, live_server, rita.username)
    browser.get(live_server.url + "/editor/")
    press(browser, "?")
    assert browser.execute_script("return document.querySelector('details.shortcuts').open")
    assert "Declare an incident" in text_of(browser, "details.shortcuts")

    browser.execute_script("document.activeElement.blur()")
    press(browser, "n")
    wait(browser, lambda b: b.current_url.endswith("/editor/incidents/new/"))
    wait(browser, lambda b: focused(b) == "id_title")
    press(browser, "Checkout fails for card payments")
    send_with_ctrl_enter(browser)
    wait(browser, lambda b: "Incident declared." in text_of(b, ".messages"))
    incident = Incident.objects.get(title__en="Checkout fails for card payments")

    browser.execute_script("document.activeElement.blur()")
    press(browser, "u")
    assert focused(browser) == "id_body"
    press(browser, "The payment processor answers again.")
    send_with_ctrl_enter(browser)
    wait(browser, lambda b: "Update posted." in text_of(b, ".messages"))
    assert "The payment processor answers again." in text_of(browser, "#timeline")

    browser.execute_script("document.activeElement.blur()")
    press(browser, "r")
    assert focused(browser) == "id_resolve-body"
    press(browser, "Card payments work again.")
    send_with_ctrl_enter(browser)
    wait(browser, lambda b: "Resolved." in text_of(b, ".messages"))
    incident.refresh_from_db()
    assert incident.status == IncidentStatus.RESOLVED


def test_a_letter_typed_in_a_field_is_text_not_a_shortcut(browser, live_server, rita, open_incident):
    log_in(browser, live_server, rita.username)
    browser.get(live_server.url + f"/editor/incidents/{open_incident.pk}/")
    css(browser, "#id_body").click()
    press(browser, "nur")
    assert browser.current_url.endswith(f"/editor/incidents/{open_incident.pk}/")
    assert css(browser, "#id_body").get_attribute("value") == "nur"
    assert focused(browser) == "id_body"


def test_a_quick_update_from_a_board_row_shows_on_the_incident(browser, live_server, rita, open_incident):
    from selenium.webdriver.support.ui import Select

    log_in(browser, live_server, rita.username)
    use_viewport(browser, 390, 844)
    browser.get(live_server.url + "/editor/")
    css(browser, f"#board-open details:has(#quick-update-{open_incident.pk}) summary").click()
    Select(css(browser, f"#quick-status-{open_incident.pk}")).select_by_value("identified")
    css(browser, f"#quick-body-{open_incident.pk}").send_keys(
        "The outbound relay was full; we are draining it."
    )
    css(browser, f"#quick-update-{open_incident.pk} button[type=submit]").click()
    wait(browser, lambda b: "Update posted." in text_of(b, ".messages"))
    assert browser.current_url.endswith(f"/editor/incidents/{open_incident.pk}/")
    latest = text_of(browser, "#timeline li:first-child")
    assert latest.startswith("Identified") and "The outbound relay was full" in latest
    browser.get(live_server.url + f"/incidents/{Incident.objects.get(pk=open_incident.pk).slug}/")
    assert "The outbound relay was full; we are draining it." in text_of(browser, "main")


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_on_call_screens_have_no_serious_accessibility_violations(
    browser, live_server, rita, open_incident, width, scheme
):
    log_in(browser, live_server, rita.username)
    use_viewport(browser, width, 800)
    use_color_scheme(browser, scheme)
    found = {}
    for path, unfold in (
        ("/editor/", "#board-open .quick-update"),
        ("/editor/incidents/new/", "#declare-form .more-components"),
        (f"/editor/incidents/{open_incident.pk}/", "#update-form .more-components"),
    ):
        browser.get(live_server.url + path)
        found[path] = serious_axe_violations(browser)
        browser.execute_script(
            "document.querySelectorAll(arguments[0]).forEach((d) => { d.open = true; })", unfold
        )
        found[path + " unfolded"] = serious_axe_violations(browser)
    browser.delete_all_cookies()
    browser.get(live_server.url + "/editor/login/")
    found["/editor/login/"] = serious_axe_violations(browser)
    assert found == {path: [] for path in found}
