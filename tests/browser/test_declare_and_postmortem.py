"""Declaring from a template on a phone, and a postmortem draft that survives a reload, in
headless Chromium, with axe-core run on both screens in light and dark."""

import pytest

from incidents.lifecycle.commands import DeclareIncident, ResolveIncident
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import resolve_incident
from incidents.models import Component, Incident, UpdateTemplate

from .conftest import serious_axe_violations, use_color_scheme, use_viewport, wait
from .test_editor_flow import Steps

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def world(responder, make_component):
    make_component("public-api", name={"en": "Public API"})
    make_component("authentication", name={"en": "Authentication"})
    template = UpdateTemplate.objects.create(
        name="Sign-in outage",
        language="en",
        status="identified",
        title={"en": "Users cannot sign in", "nb": "Brukere kan ikke logge inn"},
        body={"en": "Sign-in is **failing** for most users.", "nb": "Innlogging feiler."},
        component_statuses={"authentication": "major_outage", "public-api": "degraded_performance"},
    )
    return {"template": template}


@pytest.fixture
def steps(browser, live_server, tmp_path):
    return Steps(browser, live_server, tmp_path)


@pytest.fixture
def resolved(responder, world):
    incident = declare_incident(
        DeclareIncident(title="API errors", language="en", body="Looking."), actor=responder
    )
    resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)
    return incident


def value(steps, css):
    return steps.find(css).get_attribute("value")


def test_declaring_from_a_template_on_a_phone(steps, world):
    steps.log_in("rita")
    use_viewport(steps.browser, 390)
    steps.open("/editor/incidents/new/")
    steps.find(f'a[data-template="{world["template"].pk}"]').click()  # fills at once, no page load
    assert value(steps, "#id_title") == "Users cannot sign in"
    assert value(steps, "#id_body") == "Sign-in is **failing** for most users."
    assert value(steps, "#id_status") == "identified"
    assert steps.find("input[name=affected][value=authentication]").is_selected()
    assert value(steps, "[name=status_authentication]") == "major_outage"
    assert value(steps, "#id_impact") == "proposed"
    assert steps.find("#id_impact option[value=proposed]").text == "Proposed: Critical"
    steps.wait_for('[data-preview-for="id_body"] strong')  # the live preview of the filled text
    form = steps.browser.execute_script(
        "return document.getElementById('declare-form').getBoundingClientRect().right"
    )
    assert form <= 390
    steps.shot("declare-from-template-390")
    steps.submit("#declare")
    incident = Incident.objects.get()
    assert incident.title == {"en": "Users cannot sign in"}
    assert (incident.status, incident.impact) == ("identified", "critical")
    statuses = dict(Component.objects.values_list("slug", "status"))
    assert statuses == {"authentication": "major_outage", "public-api": "degraded_performance"}


def test_the_impact_proposal_follows_the_components_as_they_change(steps, world):
    steps.log_in("rita")
    steps.open("/editor/incidents/new/")
    proposal = "#id_impact option[value=proposed]"
    assert steps.find(proposal).text == "Proposed: Minor"
    steps.find("#declare-form .more-components summary").click()  # the components start folded
    steps.find("input[name=affected][value=public-api]").click()
    steps.choose("[name=status_public-api]", "major_outage")
    assert steps.find(proposal).text == "Proposed: Critical"
    steps.choose("[name=status_public-api]", "degraded_performance")
    assert steps.find(proposal).text == "Proposed: Minor"
    steps.choose("#id_status", "monitoring")
    placeholder = steps.find("#id_body").get_attribute("placeholder")
    assert placeholder.startswith("A fix has been put in place")


def reload_page(steps):
    """Reloads, accepting the leave-this-page prompt of a form with unsaved changes."""
    from selenium.common.exceptions import NoAlertPresentException

    steps.browser.execute_script("window.__leaving = true; location.reload();")
    try:
        steps.browser.switch_to.alert.accept()
    except NoAlertPresentException:
        pass
    steps.wait_until_left()


def draft_written(steps, text: str) -> None:
    """Waits for the draft (written a moment after the last key) to hold `text`."""
    stored = "return Object.values(window.localStorage).join()"
    wait(steps.browser, lambda driver: text in driver.execute_script(stored))


def test_a_postmortem_draft_survives_a_reload_until_discarded(steps, resolved):
    steps.log_in("rita")
    steps.open(f"/editor/incidents/{resolved.pk}/postmortem/")
    assert not steps.find("#draft-notice").is_displayed()
    steps.find("#id_summary").send_keys("The API failed for 40 minutes.\nMost requests got 502.")
    draft_written(steps, "Most requests got 502.")
    reload_page(steps)
    assert value(steps, "#id_summary") == "The API failed for 40 minutes.\nMost requests got 502."
    notice = steps.find("#draft-notice")
    assert notice.is_displayed() and "Restored your unsaved draft from" in notice.text
    steps.shot("postmortem-draft-restored")
    steps.find("#discard-draft").click()
    assert value(steps, "#id_summary") == ""
    reload_page(steps)
    assert value(steps, "#id_summary") == "" and not steps.find("#draft-notice").is_displayed()


def test_saving_a_postmortem_ends_its_draft(steps, resolved):
    steps.log_in("rita")
    steps.open(f"/editor/incidents/{resolved.pk}/postmortem/")
    steps.find("#id_root_cause").send_keys("A bad deploy.")
    draft_written(steps, "A bad deploy.")
    steps.submit("#save-postmortem")
    reload_page(steps)
    assert value(steps, "#id_root_cause") == "A bad deploy."
    assert not steps.find("#draft-notice").is_displayed()


def test_a_text_area_grows_with_its_text(steps, resolved):
    steps.log_in("rita")
    steps.open(f"/editor/incidents/{resolved.pk}/postmortem/")
    area = steps.find("#id_summary")
    before = area.size["height"]
    area.send_keys("line\n" * 20)
    assert area.size["height"] > before + 100


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_declare_and_postmortem_screens_pass_axe(steps, resolved, scheme):
    steps.log_in("rita")
    use_color_scheme(steps.browser, scheme)
    for path in ("/editor/incidents/new/", f"/editor/incidents/{resolved.pk}/postmortem/"):
        steps.open(path)
        assert serious_axe_violations(steps.browser) == [], path
        steps.shot(f"axe-{scheme}")


def test_u_opens_a_new_update_and_a_template_fills_it(steps, world, responder):
    from selenium.webdriver.common.keys import Keys

    incident = declare_incident(
        DeclareIncident(title="Sign-in fails", language="en", body="Looking."), actor=responder
    )
    steps.log_in("rita")
    steps.open(f"/editor/incidents/{incident.pk}/")
    steps.find("body").send_keys("u")
    assert steps.browser.switch_to.active_element.get_attribute("id") == "id_body"
    steps.find(f'a[data-template="{world["template"].pk}"]').click()
    assert value(steps, "#id_body") == "Sign-in is **failing** for most users."
    assert value(steps, "#id_status") == "identified"
    assert value(steps, "[name=status_authentication]") == "major_outage"
    steps.find("#id_body").send_keys(Keys.CONTROL, Keys.ENTER)  # Ctrl+Enter sends the form
    steps.wait_until_left()
    incident.refresh_from_db()
    assert incident.status == "identified"
    assert Component.objects.get(slug="authentication").status == "major_outage"
