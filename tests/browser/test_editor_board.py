"""The editor's status board and screens in a real browser: live without a reload, accessible in
light and dark, and never wider than a phone."""

import pytest
from django.utils import timezone

from incidents.intake.receiving import ReceivedAlert, receive_alerts
from incidents.intake.rules import save_alert_rule
from incidents.models import AlertRule, AlertSource, AlertState, Metric, Probe, ProbeKind, StatusMode
from incidents.services.health import evaluate_metrics
from incidents.services.metrics import record_sample
from incidents.services.probes import save_probe
from tests.browser.conftest import (
    serious_axe_violations,
    text_of,
    use_color_scheme,
    use_viewport,
    wait,
)
from tests.public.conftest import build_site

PASSWORD = "correct horse battery"

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# The first elements reaching past the right edge, to say what to fix.
WIDEST = """
const edge = document.documentElement.clientWidth;
return [...document.querySelectorAll("main *")]
  .filter((el) => el.getBoundingClientRect().right > edge + 1)
  .slice(0, 5)
  .map((el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className ? "." + el.className : ""));
"""


def log_in(browser, live_server, username):
    from selenium.webdriver.common.by import By

    browser.get(live_server.url + "/editor/login/")
    browser.find_element(By.ID, "id_username").send_keys(username)
    browser.find_element(By.ID, "id_password").send_keys(PASSWORD)
    browser.find_element(By.CSS_SELECTOR, 'form[action$="/login/"] button[type=submit]').click()
    wait(browser, lambda b: "/login/" not in b.current_url)


@pytest.fixture
def site(admin):
    return build_site(admin)


@pytest.fixture
def probed(site, settings):
    """An automatic component whose delay metric a probe measures; healthy to begin with."""
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    webhooks = site["webhooks"]
    webhooks.status_mode = StatusMode.AUTOMATIC
    webhooks.save(update_fields=["status_mode"])
    delay: Metric = site["delay"]
    save_probe(
        Probe(
            name="Webhook canary", kind=ProbeKind.HTTP, metric=delay, url="http://127.0.0.1:9/", interval=60
        ),
        actor=None,
    )
    return webhooks, delay


def measure(delay: Metric, value: float) -> None:
    """What a probe run does with its result: store the sample, then judge the metric's window."""
    now = timezone.now()
    record_sample(delay, value=value, at=now)
    evaluate_metrics({delay.pk: [(now, value)]}, now=now)


def test_the_board_shows_a_probe_driven_status_change_without_a_reload(
    browser, live_server, viewer, probed, monkeypatch
):

    monkeypatch.setattr("incidents.editor.board.REFRESH_SECONDS", 5)
    webhooks, delay = probed
    log_in(browser, live_server, viewer.username)
    browser.get(live_server.url + "/editor/")
    status = f"#board-component-{webhooks.pk} .component-head .badge"
    assert text_of(browser, status).endswith("Operational")
    browser.execute_script("window.boardNotReloaded = true")

    for _ in range(delay.window):
        measure(delay, 1200.0)  # past the major outage threshold (900 s)

    wait(browser, lambda b: text_of(b, status).endswith("Major outage"), seconds=25)
    assert "20\u00a0min" in text_of(browser, f"#board-component-{webhooks.pk}")  # 1,200 s
    assert browser.execute_script("return window.boardNotReloaded === true")
    # The probes opened a draft incident for it; the board's open list shows it too.
    assert "Webhook delivery" in text_of(browser, "#board-open")


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_board_and_the_incident_screen_have_no_serious_accessibility_violations(
    browser, live_server, responder, site, width, scheme
):
    log_in(browser, live_server, responder.username)
    use_viewport(browser, width)
    use_color_scheme(browser, scheme)
    found = {}
    for path in (
        "/editor/",
        f"/editor/incidents/{site['current'].pk}/",
        f"/editor/incidents/{site['past'].pk}/",
    ):
        browser.get(live_server.url + path)
        found[path] = serious_axe_violations(browser)
    assert found == {path: [] for path in found}


def test_no_editor_screen_is_wider_than_a_phone(browser, live_server, admin, site, probed):
    log_in(browser, live_server, admin.username)
    use_viewport(browser, 390)
    past, component = site["past"], site["webhooks"]
    probe = Probe.objects.get(metric=site["delay"])
    paths = [
        "/editor/",
        "/editor/incidents/new/",
        "/editor/maintenance/new/",
        f"/editor/incidents/{site['current'].pk}/",
        f"/editor/incidents/{past.pk}/",
        f"/editor/incidents/{past.pk}/postmortem/",
        f"/editor/incidents/{past.pk}/edit/",
        "/editor/components/",
        f"/editor/components/{component.pk}/",
        f"/editor/metrics/{site['delay'].pk}/",
        "/editor/probes/",
        f"/editor/probes/{probe.pk}/",
        "/editor/action-items/",
        "/editor/audit/",
        "/editor/users/",
        "/editor/tokens/",
        "/editor/templates/",
        "/editor/templates/new/",
        "/editor/import/statuspage/",
        "/editor/intake/",
        "/editor/intake/rules/new/",
    ]
    too_wide = {}
    for path in paths:
        browser.get(live_server.url + path)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        if width > 390:
            too_wide[path] = (width, browser.execute_script(WIDEST))
    assert too_wide == {}


# Each matcher and label on the intake screen with the number of line boxes it is drawn on.
CODE_LINES = """
return [...document.querySelectorAll("table.alert-rules code, table.intake-alerts code")]
  .map((el) => [el.textContent, el.getClientRects().length]);
"""


@pytest.mark.parametrize("width", [1280, 390])
def test_alert_matchers_and_labels_are_never_broken_inside_a_word(browser, live_server, admin, site, width):
    webhooks = site["webhooks"]
    webhooks.status_mode = StatusMode.AUTOMATIC
    webhooks.save(update_fields=["status_mode"])
    for name, matchers in [
        ("Mail queue backing up", ['alertname="MailQueueBacklog"', 'env!="staging"']),
        ("Webhook deliveries lagging", ['alertname="WebhookDeliveryLagging"']),
    ]:
        save_alert_rule(AlertRule(name=name, matchers=matchers, component=webhooks), actor=admin)
    labels = {"alertname": "InvoiceQueueStuck", "severity": "page"}
    summary = {"summary": "Invoices have waited in the billing queue for over an hour, and runs are behind."}
    alert = ReceivedAlert("invoices", AlertState.FIRING, labels, summary, timezone.now())
    receive_alerts(AlertSource.ALERTMANAGER, [alert])
    log_in(browser, live_server, admin.username)
    use_viewport(browser, width)
    browser.get(live_server.url + "/editor/intake/")
    lines = dict(browser.execute_script(CODE_LINES))
    assert lines == {
        'alertname="MailQueueBacklog"': 1,
        'env!="staging"': 1,
        'alertname="WebhookDeliveryLagging"': 1,
        'alertname="InvoiceQueueStuck"': 1,
        'severity="page"': 1,
    }


# Controls shorter than a fingertip; check boxes count by their row (the label makes it 44 px).
SHORT_CONTROLS = """
const selector = "main button, main select, main textarea, main summary, header button, header select, "
  + "header a, main input:not([type=checkbox]):not([type=radio]):not([type=hidden])";
return [...document.querySelectorAll(selector)]
  .filter((el) => el.getBoundingClientRect().width > 0 && el.getBoundingClientRect().height < 43.5)
  .map((el) => `${el.tagName.toLowerCase()} "${(el.id || el.name || el.textContent).trim().slice(0, 30)}"`);
"""


def test_every_control_on_the_board_and_incident_screen_is_at_least_44_px_tall_on_a_phone(
    browser, live_server, responder, site
):
    log_in(browser, live_server, responder.username)
    use_viewport(browser, 390)
    short = {}
    for path in ("/editor/", f"/editor/incidents/{site['current'].pk}/", "/editor/incidents/new/"):
        browser.get(live_server.url + path)
        found = browser.execute_script(SHORT_CONTROLS)
        if found:
            short[path] = found
    assert short == {}
