"""Resolving in a real browser, from the resolve form and from "Resolved" in the update form: the
component nothing holds goes back to operational, the one a probe still measures past its
threshold stays with the reason, and the public pages and the status board that are already open
show it without a reload."""

import pytest
from django.utils import timezone

from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident
from incidents.models import Component, Metric, StatusMode
from tests.browser.conftest import css, serious_axe_violations, text_of, use_color_scheme, use_viewport, wait
from tests.browser.test_editor_board import log_in
from tests.measuring import measure

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HELD = "held by: Webhook delivery delay (95th percentile) 84.0 sec > 60.0 sec"


@pytest.fixture
def stalled(responder, settings, monkeypatch):
    """Email and webhooks in a major outage; a probe still measures webhooks past its threshold."""
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0
    monkeypatch.setattr("incidents.editor.board.REFRESH_SECONDS", 5)
    email = Component.objects.create(
        slug="email-delivery", name={"en": "Email delivery"}, status_mode=StatusMode.AUTOMATIC, position=1
    )
    webhooks = Component.objects.create(
        slug="webhook-delivery", name={"en": "Webhook delivery"}, status_mode=StatusMode.AUTOMATIC, position=2
    )
    delay = Metric.objects.create(
        component=webhooks,
        slug="delay",
        name={"en": "Webhook delivery delay"},
        unit="s",
        precision=1,
        degraded_threshold=60,
        major_outage_threshold=900,
    )
    incident = declare_incident(
        DeclareIncident(
            title="Email delivery stalled",
            language="en",
            body="Mail and webhooks are stuck.",
            component_statuses={email: "major_outage", webhooks: "major_outage"},
        ),
        actor=responder,
    )
    measure(delay, [84.0] * 5, at=timezone.now())
    return incident


def plain(text: str) -> str:
    """The text as read: no-break spaces and runs of white space as one space."""
    return " ".join(text.replace("\u00a0", " ").split())


def open_tab(browser, url: str) -> str:
    browser.switch_to.new_window("tab")
    browser.get(url)
    browser.execute_script("window.notReloaded = true")
    return browser.current_window_handle


def still_the_same_page(browser) -> bool:
    return browser.execute_script("return window.notReloaded === true")


def resolve_with_the_resolve_form(browser) -> None:
    assert plain(HELD) in plain(text_of(browser, "#resolve-resolution"))
    assert "Operational" in text_of(browser, '#resolve-resolution li[data-component="email-delivery"]')
    css(browser, "#resolve").click()


def resolve_with_the_update_form(browser) -> None:
    from selenium.webdriver.support.ui import Select

    plan = css(browser, "#update-resolution")
    assert not plan.is_displayed()  # shown only while "Resolved" is chosen
    Select(css(browser, "#id_status")).select_by_value("resolved")
    assert plan.is_displayed()
    assert plain(HELD) in plain(text_of(browser, "#update-resolution"))
    assert css(browser, "#id_status_email-delivery").get_attribute("value") == "operational"
    assert css(browser, "#id_status_webhook-delivery").get_attribute("value") == "degraded_performance"
    assert css(browser, "#id_body").get_attribute("placeholder") == "This incident has been resolved."
    css(browser, "#post-update").click()


@pytest.mark.parametrize("resolve", [resolve_with_the_resolve_form, resolve_with_the_update_form])
def test_resolving_frees_one_component_and_keeps_the_probe_held_one_with_its_reason_everywhere(
    browser, live_server, responder, stalled, resolve
):
    log_in(browser, live_server, responder.username)
    overview = open_tab(browser, live_server.url + "/")
    public_incident = open_tab(browser, f"{live_server.url}/incidents/{stalled.slug}/")
    board = open_tab(browser, live_server.url + "/editor/")
    assert "Major outage" in text_of(browser, "#board-components")

    open_tab(browser, f"{live_server.url}/editor/incidents/{stalled.pk}/")
    resolve(browser)
    wait(browser, lambda b: "Resolved" in text_of(b, "#incident-status"))
    assert plain(HELD) in plain(text_of(browser, "#timeline"))

    browser.switch_to.window(board)
    email, webhooks = Component.objects.order_by("position")
    wait(browser, lambda b: "Operational" in text_of(b, f"#board-component-{email.pk} .component-head"), 25)
    assert "Degraded performance" in text_of(browser, f"#board-component-{webhooks.pk} .component-head")
    assert plain(HELD) in plain(text_of(browser, f"#board-component-{webhooks.pk}"))
    assert still_the_same_page(browser)

    for tab in (overview, public_incident):
        browser.switch_to.window(tab)
        browser.execute_script("document.dispatchEvent(new CustomEvent('refresh:now'))")
    browser.switch_to.window(overview)
    wait(browser, lambda b: "Operational" in text_of(b, "#component-email-delivery"))
    assert "Degraded performance" in text_of(browser, "#component-webhook-delivery")
    assert still_the_same_page(browser)
    browser.switch_to.window(public_incident)
    wait(browser, lambda b: plain(HELD) in plain(text_of(b, "#updates")))
    assert "Email delivery: Operational" in plain(text_of(browser, "#updates"))
    assert still_the_same_page(browser)


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_resolve_plan_and_the_held_reason_have_no_serious_accessibility_violations(
    browser, live_server, responder, stalled, width, scheme
):
    from selenium.webdriver.support.ui import Select

    log_in(browser, live_server, responder.username)
    use_viewport(browser, width)
    use_color_scheme(browser, scheme)
    browser.get(f"{live_server.url}/editor/incidents/{stalled.pk}/")
    Select(css(browser, "#id_status")).select_by_value("resolved")
    found = {"resolve screen": serious_axe_violations(browser)}
    css(browser, "#resolve").click()
    wait(browser, lambda b: "Resolved" in text_of(b, "#incident-status"))
    for path in ("/editor/", f"/incidents/{stalled.slug}/"):
        browser.get(live_server.url + path)
        found[path] = serious_axe_violations(browser)
    assert found == {page: [] for page in found}
