"""Subscribing in a real browser: from the overview to the subscribe page, an email subscription
to the check-your-inbox page, following an open incident from its page, and axe-core on each
page at 1280 and 390 px, light and dark."""

import pytest
from django.core import mail

from incidents.channels import outbox
from incidents.lifecycle.commands import DeclareIncident, PostUpdate
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import post_update
from incidents.models import Component, Subscriber
from incidents.services.components import save_component
from incidents.services.subscriptions import confirm_subscription, subscribe
from tests.browser.conftest import (
    css,
    serious_axe_violations,
    text_of,
    use_color_scheme,
    use_viewport,
    wait,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (1280, 390)


@pytest.fixture
def page(admin):
    api = save_component(
        Component(slug="public-api", name={"en": "Public API", "ru": "Публичный API"}), actor=admin
    )
    incident = declare_incident(
        DeclareIncident(
            title="Requests failing",
            language="en",
            body="Errors.",
            impact="major",
            component_statuses={api: "partial_outage"},
        ),
        actor=admin,
    )
    return {"api": api, "incident": incident}


def accessible_at_each_width(driver) -> dict[tuple[int, str], list[str]]:
    """Serious axe-core violations at a desktop and a phone width, in light and in dark."""
    found = {}
    for scheme in ("light", "dark"):
        use_color_scheme(driver, scheme)
        for width in WIDTHS:
            use_viewport(driver, width)
            found[width, scheme] = serious_axe_violations(driver)
    use_color_scheme(driver, "light")
    return {key: violations for key, violations in found.items() if violations}


def test_subscribe_by_email_from_the_overview(browser, live_server, page):
    browser.get(live_server.url + "/")
    css(browser, "a.subscribe-link").click()
    wait(browser, lambda _: browser.current_url.endswith("/subscribe/"))
    assert accessible_at_each_width(browser) == {}
    use_viewport(browser, 1280)

    # The tabs are links to sections, one shown at a time (no script): the webhook one has its
    # own form, and the email form is out of the way until its tab is chosen again.
    assert css(browser, "#email").is_displayed() and not css(browser, "#webhook").is_displayed()
    css(browser, '.subscribe-tabs a[href="#webhook"]').click()
    assert browser.current_url.endswith("#webhook")
    assert css(browser, "#webhook").is_displayed() and not css(browser, "#email").is_displayed()
    assert css(browser, "#webhook form").get_attribute("action").endswith("/subscribe/webhook/#webhook")
    css(browser, '.subscribe-tabs a[href="#email"]').click()

    address = css(browser, "#email-email")
    assert address.get_attribute("type") == "email" and address.get_attribute("autocomplete") == "email"
    address.send_keys("reader@example.com")
    css(browser, f'#email input[name="components"][value="{page["api"].slug}"]').click()
    css(browser, "#email button[type=submit]").click()

    wait(browser, lambda _: "Check your inbox" in text_of(browser, "h1"))
    assert "reader@example.com" in browser.page_source
    assert accessible_at_each_width(browser) == {}
    subscriber = Subscriber.objects.get(email="reader@example.com")
    assert [c.slug for c in subscriber.components.all()] == ["public-api"]
    assert subscriber.confirmed_at is None
    assert [m.to for m in mail.outbox] == [["reader@example.com"]]


def test_follow_an_open_incident_from_its_page(browser, live_server, page):
    browser.get(f"{live_server.url}/incidents/{page['incident'].slug}/")
    assert accessible_at_each_width(browser) == {}
    use_viewport(browser, 1280)
    css(browser, ".follow-action a").click()
    wait(browser, lambda _: "/subscribe/incidents/" in browser.current_url)
    assert accessible_at_each_width(browser) == {}
    use_viewport(browser, 1280)

    css(browser, "input[type=email][name=email]").send_keys("fan@example.com")
    css(browser, "form.subscribe-form button[type=submit]").click()

    wait(browser, lambda _: "Check your inbox" in text_of(browser, "h1"))
    assert Subscriber.objects.get(email="fan@example.com").incident == page["incident"]


def test_the_russian_subscribe_page_is_accessible_and_names_components_in_russian(browser, live_server, page):
    browser.get(live_server.url + "/ru/subscribe/")
    assert "Публичный API" in css(browser, "#email fieldset").text
    assert accessible_at_each_width(browser) == {}


def test_a_refused_webhook_form_comes_back_at_its_own_tab(browser, live_server, page):
    browser.get(live_server.url + "/subscribe/#webhook")
    css(browser, "#webhook-endpoint_url").send_keys("not a url")
    css(browser, "#webhook-email").send_keys("ops@example.com")
    css(browser, "#webhook button[type=submit]").click()

    wait(browser, lambda _: "/subscribe/webhook/" in browser.current_url)
    assert css(browser, "#webhook").is_displayed() and not css(browser, "#email").is_displayed()
    assert css(browser, "#webhook .errorlist").is_displayed()
    assert not Subscriber.objects.exists()


def chosen_tabs(driver) -> list[str]:
    """The tabs drawn as chosen: the ones with the accent line along their top."""
    tabs = driver.find_elements("css selector", ".subscribe-tabs a")
    return [tab.text for tab in tabs if tab.value_of_css_property("box-shadow") != "none"]


def test_the_tab_of_the_section_shown_looks_chosen(browser, live_server, page):
    browser.get(live_server.url + "/subscribe/")
    assert chosen_tabs(browser) == ["Email"]

    css(browser, ".subscribe-tabs a[href='#webhook']").click()
    wait(browser, lambda _: css(browser, "#webhook").is_displayed())
    assert chosen_tabs(browser) == ["Webhook"]

    # A refused form comes back without an address fragment: its tab is the chosen one.
    css(browser, "#webhook-endpoint_url").send_keys("not a url")
    css(browser, "#webhook-email").send_keys("ops@example.com")
    css(browser, "#webhook button[type=submit]").click()
    wait(browser, lambda _: "/subscribe/webhook/" in browser.current_url)
    assert chosen_tabs(browser) == ["Webhook"]


def test_follow_the_incident_from_a_mail_with_one_click(browser, live_server, page, settings):
    settings.SITE_URL = live_server.url
    confirm_subscription(subscribe(email="reader@example.com", language="en", send_mail=False).subscriber)
    post_update(
        page["incident"],
        PostUpdate(status="identified", body={"en": "A bad deploy."}, language="en"),
        actor=None,
    )
    outbox.deliver_due(seconds=5)
    [link] = [
        line.split(": ", 1)[1] for line in mail.outbox[-1].body.splitlines() if "/subscribe/follow/" in line
    ]

    browser.get(link)
    assert "Requests failing" in text_of(browser, "main")
    assert accessible_at_each_width(browser) == {}
    assert not Subscriber.objects.filter(incident=page["incident"]).exists()
    use_viewport(browser, 1280)
    css(browser, "main form button[type=submit]").click()

    wait(browser, lambda _: "now receives each update" in text_of(browser, "main"))
    assert accessible_at_each_width(browser) == {}
    assert Subscriber.objects.get(incident=page["incident"]).is_active
