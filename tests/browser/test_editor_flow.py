"""A responder runs an incident from declaration to published postmortem in a real browser.

Each step saves a screenshot under the test's temporary folder. One run of the flow is checked
three ways: the editor's steps, the public incident page (`check_public_incident_page`) and a
viewer's refusal (`check_viewer_cannot_edit`).
"""

import datetime as dt
import itertools

import pytest

from incidents.models import ActionItem, AuditEvent, Component, Incident, Postmortem
from tests.browser.conftest import STALE, none_shown

PASSWORD = "correct horse battery"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Steps:
    """The browser, the server address and numbered screenshots.

    Selenium is imported inside the methods so that collecting this module works where it is not
    installed; the conftest then skips (or fails under REQUIRE_SERVICES=1) with the reason.
    """

    def __init__(self, browser, live_server, folder):
        self.browser, self.base, self.folder = browser, live_server.url, folder
        self.counter = itertools.count(1)
        self.shots = []

    def open(self, path):
        self.browser.get(self.base + path)

    def shot(self, name):
        path = self.folder / f"{next(self.counter):02d}-{name}.png"
        self.browser.save_screenshot(str(path))
        self.shots.append(path)

    def find(self, css):
        from selenium.webdriver.common.by import By

        return self.browser.find_element(By.CSS_SELECTOR, css)

    def wait_for(self, css, seconds=10):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.browser, seconds, ignored_exceptions=STALE).until(
            expected_conditions.presence_of_element_located((By.CSS_SELECTOR, css))
        )

    def type(self, css, text):
        field = self.find(css)
        field.clear()
        field.send_keys(text)

    def choose(self, css, value):
        from selenium.webdriver.support.ui import Select

        Select(self.find(css)).select_by_value(value)

    def submit(self, css):
        """Clicks a button or link and waits until the next page has replaced this one."""

        # A mark on the old page's window object; the next page starts without it. (Waiting
        # for the old <html> element to go stale races with Chromium's node bookkeeping.)
        self.browser.execute_script("window.__leaving = true;")
        self.find(css).click()
        self.wait_until_left()

    def wait_until_left(self):
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(self.browser, 15, ignored_exceptions=STALE).until(
            lambda driver: driver.execute_script(
                "return window.__leaving === undefined && document.readyState === 'complete'"
            )
        )

    def text(self):
        return self.find("body").text

    def source(self):
        return self.browser.page_source

    def log_in(self, username):
        self.browser.delete_all_cookies()
        self.open("/editor/login/")
        self.type("#id_username", username)
        self.type("#id_password", PASSWORD)
        self.submit("form.form button[type=submit]")


@pytest.fixture
def world(responder, viewer, make_component):
    return {
        "api": make_component("public-api", name={"en": "Public API", "nb": "Offentlig API"}),
        "webhooks": make_component(
            "webhook-delivery", name={"en": "Webhook delivery", "nb": "Webhook-levering"}
        ),
    }


def run_responder_flow(steps: Steps, world) -> Incident:
    """Log in, declare, post three updates, resolve, write a postmortem in two languages, publish."""
    steps.log_in("rita")
    assert steps.browser.current_url.endswith("/editor/")
    steps.shot("logged-in")

    # Declare in one form, touching two components.
    steps.open("/editor/incidents/new/")
    steps.type("#id_title", "Webhook deliveries delayed")
    steps.choose("#id_impact", "major")
    steps.find("#declare-form .more-components summary").click()  # the components start folded
    steps.find("input[name=affected][value=public-api]").click()
    steps.find("input[name=affected][value=webhook-delivery]").click()
    steps.choose("[name=status_public-api]", "degraded_performance")
    steps.choose("[name=status_webhook-delivery]", "major_outage")
    steps.type("#id_body", "We are investigating delayed webhook deliveries.")
    steps.shot("declare-form")
    steps.submit("form.form button[type=submit]")
    incident = Incident.objects.get()
    assert steps.browser.current_url.endswith(f"/editor/incidents/{incident.pk}/")
    assert "Webhook deliveries delayed" in steps.text()
    statuses = dict(Component.objects.values_list("slug", "status"))
    assert statuses == {"public-api": "degraded_performance", "webhook-delivery": "major_outage"}
    steps.shot("declared")

    # The public overview shows the open incident and the component statuses.
    steps.open("/")
    overview = steps.text()
    assert "Webhook deliveries delayed" in overview
    assert "Major outage" in overview and "Degraded performance" in overview
    steps.shot("public-overview-during")

    # Three updates.
    updates = [
        ("identified", "A queue consumer is stuck; we are restarting it."),
        ("monitoring", "Consumers restarted; the backlog is draining."),
        ("monitoring", "The backlog is down to a few minutes."),
    ]
    for number, (status, text) in enumerate(updates, start=1):
        steps.open(f"/editor/incidents/{incident.pk}/")
        steps.choose("#id_status", status)
        steps.type("#id_body", text)
        if number == 2:
            steps.choose("[name=status_webhook-delivery]", "degraded_performance")
        steps.submit("#post-update")
        assert text in steps.text()
        steps.shot(f"update-{number}")
    incident.refresh_from_db()
    assert incident.status == "monitoring" and incident.updates.count() == 4

    # Resolve: components go back to operational.
    steps.type("#id_resolve-body", "Deliveries are back to normal.")
    steps.submit("#resolve")
    incident.refresh_from_db()
    assert incident.status == "resolved"
    assert set(Component.objects.values_list("status", flat=True)) == {"operational"}
    assert "Resolved" in steps.find("#incident-status").text
    steps.shot("resolved")

    # The postmortem in English, then Norwegian beside the original.
    steps.submit("#postmortem-link")
    steps.type("#id_summary", "Webhook deliveries were **delayed** for 40 minutes.")
    steps.wait_for('[data-preview-for="id_summary"] strong')  # the live preview (editor.js)
    steps.type("#id_root_cause", "A consumer stopped acknowledging messages.")
    steps.submit("#preview-postmortem")  # the preview without JavaScript
    assert "delayed" in steps.find(".preview").text
    steps.shot("postmortem-preview")
    steps.submit("#save-postmortem")
    steps.submit("#tab-nb")
    assert "Webhook deliveries were" in steps.find(".original").text
    steps.type("#id_summary", "Webhook-leveranser var **forsinket** i 40 minutter.")
    steps.type("#id_root_cause", "En konsument sluttet å kvittere for meldinger.")
    steps.submit("#save-postmortem")
    assert steps.find("#tab-nb .complete")
    steps.shot("postmortem-nb")

    # Two action items, one due in the first quarter of 2027.
    steps.submit("#tab-en")
    steps.type("#id_new-title", "Alert on consumer lag")
    steps.choose("#id_new-owner", str(world["responder"].pk))
    steps.type("#id_new-due", "Q1 2027")
    steps.submit("#add-action-item")
    steps.type("#id_new-title", "Document the restart procedure")
    steps.type("#id_new-owner_name", "Platform team")
    steps.type("#id_new-due", "2026-12-15")
    steps.submit("#add-action-item")
    items = list(ActionItem.objects.order_by("pk"))
    assert [(i.due_date, i.due_precision) for i in items] == [
        (dt.date(2027, 1, 1), "quarter"),
        (dt.date(2026, 12, 15), "day"),
    ]
    steps.shot("action-items")

    # Four sections are still empty: listed beside Publish, which asks for a confirmation.
    assert "Customer impact" in steps.find("#empty-sections").text
    steps.find("#id_publish_with_empty_sections").click()
    steps.submit("#publish-postmortem")
    assert Postmortem.objects.get().is_published
    assert "Published" in steps.find("#postmortem-state").text
    steps.shot("postmortem-published")

    # The public overview is back to all operational; the incident is among today's past ones.
    steps.open("/")
    assert "Webhook deliveries delayed" not in steps.find("#incidents-now").text
    assert "Webhook deliveries delayed" in steps.find(".past-incidents").text
    # Today's day bar still tells of the outage; the components' current status does not (their
    # groups are folded again, all being operational).
    current = [
        steps.find(f"#component-{slug} .component-head").get_attribute("textContent")
        for slug in ("public-api", "webhook-delivery")
    ]
    assert all("Operational" in text for text in current)
    assert not any("outage" in text.lower() or "degraded" in text.lower() for text in current)
    steps.shot("public-overview-after")
    return incident


def check_viewer_cannot_edit(steps: Steps, incident: Incident):
    steps.log_in("victor")
    steps.open(f"/editor/incidents/{incident.pk}/")
    assert "Webhook deliveries delayed" in steps.text()  # a viewer reads the cockpit
    assert none_shown(steps.browser, "#reopen, #post-update, #resolve")
    steps.shot("viewer-cockpit")
    # A form built by hand (with a valid CSRF token) is still refused by the server.
    events = AuditEvent.objects.count()
    steps.browser.execute_script(
        """
        const form = document.createElement("form");
        form.method = "post";
        form.action = arguments[0];
        const token = document.querySelector("input[name=csrfmiddlewaretoken]").cloneNode();
        const body = Object.assign(document.createElement("input"), {name: "reopen-body", value: "Viewer tries."});
        const language = Object.assign(document.createElement("input"), {name: "reopen-language", value: "en"});
        const version = Object.assign(document.createElement("input"), {name: "reopen-version", value: arguments[1]});
        form.append(token, body, language, version);
        document.body.append(form);
        window.__leaving = true;
        form.submit();
        """,
        f"/editor/incidents/{incident.pk}/reopen/",
        str(incident.version),
    )
    steps.wait_until_left()
    steps.shot("viewer-refused")
    assert "403" in steps.source() or "Forbidden" in steps.source()
    incident.refresh_from_db()
    assert incident.status == "resolved" and AuditEvent.objects.count() == events
    steps.open("/editor/incidents/new/")
    assert "403" in steps.source() or "Forbidden" in steps.source()


def check_public_incident_page(steps: Steps, incident: Incident):
    """The public incident page shows the timeline, the postmortem and its action items."""
    steps.open(f"/incidents/{incident.slug}/")
    page = steps.text()
    assert "Webhook deliveries delayed" in page
    for text in (
        "We are investigating delayed webhook deliveries.",
        "A queue consumer is stuck; we are restarting it.",
        "Consumers restarted; the backlog is draining.",
        "The backlog is down to a few minutes.",
        "Deliveries are back to normal.",
    ):
        assert text in page
    assert "Webhook deliveries were delayed for 40 minutes." in page
    assert "Alert on consumer lag" in page and "1st quarter 2027" in page
    assert "Document the restart procedure" in page
    steps.shot("public-incident-en")
    steps.open(f"/nb/incidents/{incident.slug}/")
    assert "Webhook-leveranser var forsinket i 40 minutter." in steps.text()
    steps.shot("public-incident-nb")


def test_a_responders_incident_reaches_the_public_page_and_a_viewer_cannot_edit_it(
    browser, live_server, tmp_path, world, responder
):
    steps = Steps(browser, live_server, tmp_path)
    world["responder"] = responder
    incident = run_responder_flow(steps, world)
    check_public_incident_page(steps, incident)
    check_viewer_cannot_edit(steps, incident)
    assert len(steps.shots) >= 12 and all(path.stat().st_size > 0 for path in steps.shots)
