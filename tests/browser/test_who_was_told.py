"""A responder posts an update with notifications off, then one with them on, and watches the
second's delivery counts reach "sent" on the incident screen without reloading it.

The live server queues the dispatch on commit; the test then plays the notify worker
(`outbox.deliver_due`, as `incidents.notify.dispatch` does) and the page's refresh picks the
new counts up. axe-core runs on the screen in light and dark.
"""

import pytest
from django.utils import timezone

from incidents.channels import outbox
from incidents.lifecycle.commands import DeclareIncident
from incidents.lifecycle.opening import declare_incident
from incidents.models import Delivery, DeliveryState, IncidentUpdate, Subscriber
from tests.browser.conftest import wait

from .conftest import serious_axe_violations, use_color_scheme

PASSWORD = "correct horse battery"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def incident(responder, make_component):
    Subscriber.objects.create(email="reader@example.com", all_components=True, confirmed_at=timezone.now())
    api = make_component("public-api", name={"en": "Public API"})
    incident = declare_incident(
        DeclareIncident(
            title="Elevated API errors",
            language="en",
            body="We are investigating.",
            component_statuses={api: "partial_outage"},
        ),
        actor=responder,
    )
    outbox.deliver_due(seconds=30)  # the declaration's own mail is out
    return incident


def log_in(browser, base: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(base + "/editor/login/")
    browser.find_element(By.ID, "id_username").send_keys("rita")
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.ID, "id_password").submit()
    wait(browser, lambda d: "/editor/login/" not in d.current_url)


def post_update(browser, base: str, incident, *, body: str, notify: bool) -> IncidentUpdate:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    browser.get(f"{base}/editor/incidents/{incident.pk}/")
    form = browser.find_element(By.ID, "update-form")
    Select(form.find_element(By.NAME, "status")).select_by_value("identified")
    form.find_element(By.NAME, "body").send_keys(body)
    box = form.find_element(By.NAME, "deliver_notifications")
    if box.is_selected() != notify:
        browser.execute_script("arguments[0].click();", box)
    browser.execute_script("window.__leaving = true;")
    form.find_element(By.ID, "post-update").click()
    wait(browser, lambda d: d.execute_script("return window.__leaving === undefined"))
    return IncidentUpdate.objects.get(body__en=body)


def email_count(browser, update, state: str) -> str:
    return browser.execute_script(
        "const n = document.querySelector(arguments[0]); return n ? n.textContent.trim() : null;",
        f'#deliveries-{update.pk} [data-channel="email"] [data-state="{state}"]',
    )


def test_notify_off_tells_nobody_and_notify_on_shows_its_counts_reach_sent(browser, live_server, incident):
    from selenium.webdriver.common.by import By

    log_in(browser, live_server.url)

    quiet = post_update(browser, live_server.url, incident, body="Quiet note.", notify=False)
    quiet_block = browser.find_element(By.ID, f"deliveries-{quiet.pk}")
    assert quiet_block.get_attribute("innerHTML").count('data-notify="off"') == 1
    assert not Delivery.objects.filter(update=quiet).exists()

    told = post_update(browser, live_server.url, incident, body="Found the cause.", notify=True)
    assert email_count(browser, told, "queued") == "1"
    assert email_count(browser, told, "sent") == "0"
    browser.execute_script("window.__sameLoad = true;")

    outbox.deliver_due(seconds=30)  # what the notify worker does when the commit's message arrives
    assert Delivery.objects.get(update=told).state == DeliveryState.SENT

    wait(browser, lambda d: email_count(d, told, "sent") == "1")
    assert email_count(browser, told, "queued") == "0"
    assert browser.execute_script("return window.__sameLoad === true")  # no reload happened

    for scheme in ("light", "dark"):
        use_color_scheme(browser, scheme)
        assert serious_axe_violations(browser) == [], scheme


def test_a_failed_delivery_can_be_retried_from_the_screen_on_a_phone(
    browser, live_server, incident, tmp_path
):
    from selenium.webdriver.common.by import By

    from .conftest import use_viewport

    Subscriber.objects.create(
        channel="webhook",
        email="ops@example.com",
        endpoint_url="http://127.0.0.1:9/hooks/secret",  # refused by the outbound guard: fails at once
        all_components=True,
        confirmed_at=timezone.now(),
    )
    log_in(browser, live_server.url)
    update = post_update(browser, live_server.url, incident, body="Found the cause.", notify=True)
    outbox.deliver_due(seconds=30)
    use_viewport(browser, 390)
    browser.get(f"{live_server.url}/editor/incidents/{incident.pk}/")
    block = browser.find_element(By.ID, f"deliveries-{update.pk}")
    assert "secret" not in browser.page_source.split(f'id="deliveries-{update.pk}"')[1].split("</div>")[0]
    for scheme in ("light", "dark"):
        use_color_scheme(browser, scheme)
        browser.execute_script("arguments[0].scrollIntoView();", block)
        browser.save_screenshot(str(tmp_path / f"deliveries-390-{scheme}.png"))
        assert serious_axe_violations(browser) == [], scheme

    browser.execute_script("window.__leaving = true;")
    block.find_element(By.CSS_SELECTOR, "button.retry-deliveries").click()
    wait(browser, lambda d: d.execute_script("return window.__leaving === undefined"))

    assert Delivery.objects.get(update=update, channel="webhook").state == DeliveryState.PENDING
    assert Delivery.objects.get(update=update, channel="email").state == DeliveryState.SENT
    assert (
        browser.execute_script(
            "return document.querySelector(arguments[0]).textContent.trim()",
            f'#deliveries-{update.pk} [data-channel="webhook"] [data-state="queued"]',
        )
        == "1"
    )
