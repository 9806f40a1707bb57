"""Alert intake as a hostile or broken sender drives it: notifications replayed or delayed out of
order, labels built to make rule regexes backtrack, annotations carrying links, HTML and
mentions, labels too long or too many, and text no database row can hold."""

# The intake tests' fixtures, imported below, are requested by name: not redefinitions.
# ruff: noqa: F811

import json
import time

import pytest
from django.db import connection
from rest_framework.test import APIClient

from incidents.intake import receiving as intake_service
from incidents.intake.matchers import parse_matcher
from incidents.models import AlertRule, Component, Incident, IntakeAlert
from tests.conftest import database_rows
from tests.intake.conftest import api_component, intake, rules, webhooks  # noqa: F401
from tests.intake.payloads import alertmanager, grafana

from .conftest import assert_form_refused, refused_without_trace

pytestmark = pytest.mark.django_db
AM = "/api/v1/intake/alertmanager/"
GRAFANA = "/api/v1/intake/grafana/"
LATER = "2026-11-30T22:05:00Z"
HOSTILE_SUMMARY = "[click](http://evil.example/) <img src=x onerror=alert(1)> @everyone"


def status_of(component) -> str:
    return Component.objects.get(pk=component.pk).status


def drafts_for(component) -> list[int]:
    return list(
        Incident.objects.filter(components=component, published_at__isnull=True).values_list("pk", flat=True)
    )


def later_firing(payload: dict) -> dict:
    payload["alerts"][0]["startsAt"] = LATER
    return payload


@pytest.mark.parametrize(
    ("url", "payload", "held"), [(AM, alertmanager, "webhooks"), (GRAFANA, grafana, "api")]
)
def test_a_firing_replayed_after_its_resolution_stays_resolved(
    intake, rules, webhooks, api_component, url, payload, held
):
    component = webhooks if held == "webhooks" else api_component
    intake.post(url, payload("firing"), format="json")
    intake.post(url, payload("resolved"), format="json")
    drafts = drafts_for(component)

    replayed = intake.post(url, payload("firing"), format="json")

    assert replayed.status_code == 200, replayed.content
    assert replayed.json() == {"firing": 0, "resolved": 0, "repeated": 1, "unknown": 0}
    assert status_of(component) == "operational"
    assert IntakeAlert.objects.get().state == "resolved"
    assert drafts_for(component) == drafts


def test_a_new_firing_reopens_and_a_delayed_earlier_resolution_does_not_end_it(intake, rules, webhooks):
    intake.post(AM, alertmanager("firing"), format="json")
    intake.post(AM, alertmanager("resolved"), format="json")

    again = intake.post(AM, later_firing(alertmanager("firing")), format="json")
    assert again.json()["firing"] == 1 and status_of(webhooks) == "major_outage"

    delayed = intake.post(AM, alertmanager("resolved"), format="json")  # startsAt of the first episode

    assert delayed.json()["resolved"] == 0
    assert status_of(webhooks) == "major_outage"
    alert = IntakeAlert.objects.get()
    assert alert.state == "firing" and alert.starts_at.isoformat().startswith("2026-11-30T22:05")


def test_replaying_a_whole_earlier_episode_leaves_the_later_one_resolved(intake, rules, webhooks):
    second_resolved = alertmanager("resolved", ends_at="2026-11-30T22:40:00Z")
    second_resolved["alerts"][0]["startsAt"] = LATER
    for payload in (alertmanager("firing"), alertmanager("resolved"), later_firing(alertmanager("firing"))):
        intake.post(AM, payload, format="json")
    intake.post(AM, second_resolved, format="json")

    for replayed in (alertmanager("resolved"), later_firing(alertmanager("firing"))):
        assert intake.post(AM, replayed, format="json").json()["repeated"] == 1

    assert status_of(webhooks) == "operational"
    assert IntakeAlert.objects.get().state == "resolved"


def test_one_payload_with_firing_and_resolved_keeps_the_resolution(intake, rules, webhooks):
    payload = alertmanager("resolved")
    payload["alerts"] = alertmanager("resolved")["alerts"] + alertmanager("firing")["alerts"]

    response = intake.post(AM, payload, format="json")

    assert response.status_code == 200, response.content
    assert IntakeAlert.objects.get().state == "resolved"
    assert status_of(webhooks) == "operational"


def test_rule_regexes_run_on_re2_in_linear_time():
    matcher = parse_matcher('instance=~"(a+)+$"')
    assert type(matcher.pattern).__module__.startswith("re2")

    started = time.monotonic()
    assert matcher.holds({"instance": "a" * 40 + "!"}) is False
    assert matcher.holds({"instance": "a" * 40}) is True
    assert time.monotonic() - started < 0.5


def test_a_backtracking_rule_takes_a_hostile_label_promptly(intake, webhooks, admin):
    client = APIClient()
    client.force_login(admin)
    saved = client.post(
        "/api/v1/alert-rules/",
        {"name": "Backtracking", "matchers": ['instance=~"(a+)+$"'], "component": "webhooks"},
        format="json",
    )
    assert saved.status_code == 201, saved.content

    started = time.monotonic()
    hostile = intake.post(AM, alertmanager("firing", instance="a" * 40 + "!"), format="json")
    taken = intake.post(
        AM, alertmanager("firing", fingerprint="0000000000000040", instance="a" * 40), format="json"
    )

    assert time.monotonic() - started < 2
    assert hostile.json()["unknown"] == 1
    assert taken.json()["firing"] == 1 and status_of(webhooks) == "major_outage"


def test_a_backreference_rule_is_refused_by_the_api_naming_the_field(admin, webhooks):
    client = APIClient()
    client.force_login(admin)
    rows = database_rows()

    response = client.post(
        "/api/v1/alert-rules/",
        {"name": "Backreference", "matchers": ['instance=~"(a)\\\\1"'], "component": "webhooks"},
        format="json",
    )

    refused_without_trace(response, "matchers", rows)


def test_a_backreference_rule_is_refused_by_the_editor_naming_the_field(editor, webhooks):
    response = editor.post(
        "/editor/intake/rules/new/",
        {
            "name": "Backreference",
            "source": "",
            "matchers": 'instance=~"(a)\\\\1"',
            "component": webhooks.pk,
            "status": "major_outage",
            "position": 1,
            "enabled": "on",
        },
    )

    assert_form_refused(response, "matchers")
    assert "RE2" in response.context["form"].errors["matchers"][0]
    assert not AlertRule.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_rules_are_matched_before_the_write_transaction_opens(intake, rules, webhooks, monkeypatch):
    inside_transaction = []
    real_all_hold = intake_service.all_hold

    def watched(matchers, labels):
        inside_transaction.append(connection.in_atomic_block)
        return real_all_hold(matchers, labels)

    monkeypatch.setattr(intake_service, "all_hold", watched)

    response = intake.post(AM, alertmanager("firing"), format="json")

    assert response.json()["firing"] == 1
    assert inside_transaction and not any(inside_transaction)


def test_annotations_are_quoted_inert_in_the_draft(intake, rules, webhooks, editor):
    payload = alertmanager("firing")
    payload["alerts"][0]["annotations"]["summary"] = HOSTILE_SUMMARY

    intake.post(AM, payload, format="json")

    [draft] = drafts_for(webhooks)
    page = editor.get(f"/editor/incidents/{draft}/").content.decode()
    assert 'href="http://evil' not in page
    assert "<img" not in page
    assert "[click](http://evil.example/) &lt;img src=x onerror=alert(1)&gt; @everyone" in page


def oversized(payload: dict, case: str) -> dict:
    labels = payload["alerts"][0]["labels"]
    if case == "name":
        labels["n" * 100_000] = "x"
    elif case == "value":
        labels["instance"] = "v" * 1025
    else:
        labels.update({f"label_{n}": "x" for n in range(65)})
    return payload


@pytest.mark.parametrize("case", ["name", "value", "count"])
def test_oversized_labels_are_refused_naming_the_field(intake, rules, case):
    rows = database_rows()

    response = intake.post(AM, oversized(alertmanager("firing"), case), format="json")

    refused_without_trace(response, "labels", rows)


@pytest.mark.parametrize(
    ("field", "where"),
    [
        ("labels", "NUL in a label name"),
        ("labels", "surrogate in a label name"),
        ("annotations", "NUL in an annotation name"),
    ],
)
def test_text_no_row_can_hold_is_refused_with_nothing_written(intake, rules, field, where):
    payload = alertmanager("firing")
    alert = payload["alerts"][0]
    if where == "NUL in a label name":
        alert["labels"]["serv\x00ice"] = "webhooks"
    elif where == "surrogate in a label name":
        alert["labels"]["instance\ud800"] = "worker-3"
    else:
        alert["annotations"]["sum\x00mary"] = "x"
    body = json.dumps(payload)  # NUL and lone surrogates escaped as \\u0000 and \\ud800, as a sender would
    rows = database_rows()

    response = intake.post(AM, body, content_type="application/json")

    # Should the API's JSON parser refuse such text in any body first, it names the body instead.
    refused_without_trace(response, "body" if b'"body"' in response.content else field, rows)
