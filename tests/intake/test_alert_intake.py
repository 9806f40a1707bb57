"""Alertmanager and Grafana notifications move components and open drafts for on-call; repeats
change nothing; resolving restores; bad or unauthenticated payloads change nothing at all."""

import datetime as dt
import re

import pytest
import time_machine
from rest_framework.test import APIClient

from incidents.editor.audit_text import describe
from incidents.models import AuditEvent, Component, Incident, IntakeAlert, TokenScope
from incidents.services.api_tokens import issue_token

from .payloads import alertmanager, copy_of, grafana

pytestmark = pytest.mark.django_db
AM = "/api/v1/intake/alertmanager/"
GRAFANA = "/api/v1/intake/grafana/"


def status_of(component) -> str:
    return Component.objects.get(pk=component.pk).status


def drafts_for(component):
    return Incident.objects.filter(components=component, published_at__isnull=True)


def everything():
    """Every row intake could touch, to prove a refused payload wrote nothing."""
    return (
        list(IntakeAlert.objects.values()),
        list(Component.objects.values("slug", "status")),
        Incident.objects.count(),
        AuditEvent.objects.count(),
    )


def test_a_firing_alert_sets_the_component_and_opens_one_draft_incident(intake, rules, webhooks):
    response = intake.post(AM, alertmanager("firing"), format="json")

    assert response.status_code == 200, response.content
    assert response.json() == {"firing": 1, "resolved": 0, "repeated": 0, "unknown": 0}
    assert status_of(webhooks) == "major_outage"
    [draft] = drafts_for(webhooks)
    assert draft.impact == "critical"
    assert "Webhook deliveries are 4 minutes behind" in draft.updates.get().body["en"]
    change = AuditEvent.objects.get(action="component.status_changed", subject_id=str(webhooks.pk))
    assert "WebhookDeliveryLagHigh" in change.after["reason"]
    line = describe(change, "en")
    assert line.actor == "an Alertmanager alert" and line.by_automation
    assert line.sentence == "Webhook delivery: Operational → Major outage"


def test_a_repeated_or_regrouped_firing_changes_nothing(intake, rules, webhooks):
    intake.post(AM, alertmanager("firing"), format="json")
    trail = AuditEvent.objects.count()

    again = intake.post(AM, alertmanager("firing"), format="json")
    regrouped = copy_of(alertmanager("firing"))
    regrouped["groupKey"] = '{}/{service="webhooks"}:{}'
    twice_in_one = copy_of(alertmanager("firing"))
    twice_in_one["alerts"] = twice_in_one["alerts"] * 2
    intake.post(AM, regrouped, format="json")
    intake.post(AM, twice_in_one, format="json")

    assert again.json() == {"firing": 0, "resolved": 0, "repeated": 1, "unknown": 0}
    assert drafts_for(webhooks).count() == 1
    assert AuditEvent.objects.count() == trail
    assert IntakeAlert.objects.get().times_received == 4


def test_the_resolved_alert_restores_the_component(intake, rules, webhooks):
    intake.post(AM, alertmanager("firing"), format="json")

    response = intake.post(AM, alertmanager("resolved"), format="json")

    assert response.json()["resolved"] == 1
    assert status_of(webhooks) == "operational"
    alert = IntakeAlert.objects.get()
    assert alert.state == "resolved" and alert.ends_at.isoformat().startswith("2026-11-30T21:31:35")


def test_a_component_held_down_by_two_alerts_recovers_only_when_both_resolve(intake, rules, webhooks):
    intake.post(AM, alertmanager("firing", fingerprint="aaaa000000000001", instance="w1"), format="json")
    intake.post(AM, alertmanager("firing", fingerprint="aaaa000000000002", instance="w2"), format="json")

    intake.post(AM, alertmanager("resolved", fingerprint="aaaa000000000001", instance="w1"), format="json")
    assert status_of(webhooks) == "major_outage"

    intake.post(AM, alertmanager("resolved", fingerprint="aaaa000000000002", instance="w2"), format="json")
    assert status_of(webhooks) == "operational"


def test_grafana_alerts_follow_their_own_rule(intake, rules, api_component, webhooks):
    response = intake.post(GRAFANA, grafana("firing"), format="json")

    assert response.status_code == 200, response.content
    assert status_of(api_component) == "degraded_performance"
    assert status_of(webhooks) == "operational"
    assert drafts_for(api_component).get().impact == "major"

    intake.post(GRAFANA, grafana("resolved"), format="json")
    assert status_of(api_component) == "operational"


def test_a_rule_for_grafana_only_ignores_the_same_labels_from_alertmanager(intake, rules, api_component):
    response = intake.post(AM, alertmanager("firing", service="api", severity="warning"), format="json")

    assert response.json()["unknown"] == 1
    assert status_of(api_component) == "operational"


def test_unknown_alerts_are_kept_and_listed_never_dropped(intake, rules, admin):
    response = intake.post(
        AM, alertmanager("firing", service="billing", alertname="InvoiceQueueStuck"), format="json"
    )

    assert response.json() == {"firing": 0, "resolved": 0, "repeated": 0, "unknown": 1}
    alert = IntakeAlert.objects.get()
    assert alert.is_unknown and alert.labels["service"] == "billing"
    client = APIClient()
    client.force_login(admin)
    listed = client.get("/api/v1/intake-alerts/?unknown=true").json()["results"]
    assert [a["name"] for a in listed] == ["InvoiceQueueStuck"]
    editor = client.get("/editor/intake/")
    assert editor.status_code == 200 and "InvoiceQueueStuck" in editor.content.decode()


@pytest.mark.parametrize(
    "client_kind", ["anonymous", "read_write_token", "read_token", "session", "wrong_token", "viewer_intake"]
)
def test_without_an_intake_token_nothing_changes(client_kind, rules, webhooks, admin, viewer, responder):
    client = APIClient()
    if client_kind == "session":
        client.force_login(admin)
    elif client_kind in ("read_write_token", "read_token"):
        scope = TokenScope.READ_WRITE if client_kind == "read_write_token" else TokenScope.READ
        client.credentials(
            HTTP_AUTHORIZATION=f"Bearer {issue_token(admin, name='t', scope=scope, actor=admin)[1]}"
        )
    elif client_kind == "wrong_token":
        client.credentials(HTTP_AUTHORIZATION="Bearer sp_not-a-token")
    elif client_kind == "viewer_intake":
        _token, secret = issue_token(responder, name="t", scope=TokenScope.INTAKE, actor=responder)
        from incidents.roles import Role, assign_role

        assign_role(responder, Role.VIEWER)
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    before = everything()

    response = client.post(AM, alertmanager("firing"), format="json")

    assert response.status_code in (401, 403)
    assert everything() == before


def test_an_intake_token_can_do_nothing_else(intake):
    assert intake.get("/api/v1/components/").status_code == 403
    assert intake.post("/api/v1/incidents/", {"title": "x"}, format="json").status_code == 403
    assert intake.get("/api/v1/alert-rules/").status_code == 403


def test_a_viewer_cannot_issue_an_intake_token(viewer):
    client = APIClient()
    client.force_login(viewer)
    response = client.post("/api/v1/tokens/", {"name": "am", "scope": "intake"}, format="json")
    assert response.status_code == 400 and "scope" in response.json()


def malformed():
    missing_labels = alertmanager("firing")
    del missing_labels["alerts"][0]["labels"]
    bad_time = alertmanager("firing")
    bad_time["alerts"][0]["startsAt"] = "yesterday"
    future = alertmanager("firing")
    future["alerts"][0]["startsAt"] = "2999-01-01T00:00:00Z"
    wrong_version = alertmanager("firing")
    wrong_version["version"] = "3"
    bad_status = alertmanager("firing")
    bad_status["alerts"][0]["status"] = "burning"
    bad_end = alertmanager("firing")
    bad_end["alerts"][0]["endsAt"] = "2026-11-30T21:31:35"  # no zone
    label_not_text = alertmanager("firing")
    label_not_text["alerts"][0]["labels"]["severity"] = {"nested": 1}
    return {
        "labels missing": (missing_labels, "alerts"),
        "startsAt not a time": (bad_time, "alerts"),
        "startsAt in the future": (future, "alerts"),
        "endsAt without a zone": (bad_end, "alerts"),
        "version 3": (wrong_version, "version"),
        "unknown status": (bad_status, "alerts"),
        "label not text": (label_not_text, "alerts"),
        "alerts not a list": ({**alertmanager("firing"), "alerts": "many"}, "alerts"),
        "not an object": ([1, 2, 3], None),
    }


@pytest.mark.parametrize("case", malformed())
def test_a_malformed_payload_is_refused_with_the_field_named_and_nothing_changes(
    case, intake, rules, webhooks
):
    payload, field = malformed()[case]
    before = everything()

    response = intake.post(AM, payload, format="json")

    assert response.status_code == 400, response.content
    if field:
        assert field in response.json()
    assert everything() == before


def test_a_malformed_json_body_is_a_400(intake, rules):
    response = intake.post(AM, b'{"version": "4", "alerts": [', content_type="application/json")
    assert response.status_code == 400
    assert not IntakeAlert.objects.exists()


def test_a_rule_moved_to_another_component_moves_the_firing_alert_with_it(
    intake, rules, webhooks, api_component, admin
):
    from incidents.intake.rules import save_alert_rule

    critical, _api = rules
    intake.post(AM, alertmanager("firing"), format="json")
    critical.component = api_component
    save_alert_rule(critical, actor=admin)

    repeated = intake.post(AM, alertmanager("firing"), format="json")

    assert repeated.json()["firing"] == 1
    assert status_of(api_component) == "major_outage"
    assert status_of(webhooks) == "operational"
    intake.post(AM, alertmanager("resolved"), format="json")
    assert status_of(api_component) == "operational"


def test_an_alert_whose_rule_was_deleted_holds_its_component_until_it_resolves(
    intake, rules, webhooks, admin
):
    from incidents.intake.rules import delete_alert_rule

    critical, _api = rules
    intake.post(AM, alertmanager("firing"), format="json")
    delete_alert_rule(critical, actor=admin)

    intake.post(AM, alertmanager("firing"), format="json")
    assert status_of(webhooks) == "major_outage"

    intake.post(AM, alertmanager("resolved"), format="json")
    assert status_of(webhooks) == "operational"


def test_metrics_count_alerts_by_source_and_outcome(intake, rules, client):
    from prometheus_client.parser import text_string_to_metric_families

    def counted(outcome: str) -> float:
        text = client.get("/metrics").content.decode()
        wanted = {"source": "alertmanager", "outcome": outcome}
        return sum(
            sample.value
            for family in text_string_to_metric_families(text)
            for sample in family.samples
            if sample.name == "statuspage_intake_alerts_total" and sample.labels == wanted
        )

    before = {outcome: counted(outcome) for outcome in ("firing", "repeated", "unknown")}

    intake.post(AM, alertmanager("firing"), format="json")
    intake.post(AM, alertmanager("firing"), format="json")
    intake.post(AM, alertmanager("firing", service="billing", fingerprint="bbbb000000000001"), format="json")

    assert {outcome: counted(outcome) - before[outcome] for outcome in before} == {
        "firing": 1,
        "repeated": 1,
        "unknown": 1,
    }


def test_a_firing_alert_its_source_stopped_sending_is_shown_as_silent_in_the_editor(intake, rules, admin):
    """Alertmanager repeats a firing alert every few hours; one not heard from for longer may be
    firing only because nothing will ever resolve it, and the editor says so, in words."""
    client = APIClient()
    client.force_login(admin)
    with time_machine.travel(dt.datetime(2026, 12, 1, 8, 0, tzinfo=dt.UTC), tick=False):
        intake.post(AM, alertmanager("firing"), format="json")
        intake.post(
            AM,
            alertmanager("firing", fingerprint="0a1b2c3d4e5f6789", service="api", alertname="ApiErrors"),
            format="json",
        )
    with time_machine.travel(dt.datetime(2026, 12, 1, 14, 0, tzinfo=dt.UTC), tick=False):
        intake.post(
            AM,
            alertmanager("firing", fingerprint="0a1b2c3d4e5f6789", service="api", alertname="ApiErrors"),
            format="json",
        )
    with time_machine.travel(dt.datetime(2026, 12, 1, 15, 30, tzinfo=dt.UTC), tick=False):
        english = client.get("/editor/intake/").content.decode()
        russian = client.get("/editor/intake/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()

    silent = re.findall(r'class="alert-silent">([^<]*)<', english)
    assert silent == [
        "Not sent again for 7 hours and 30 minutes: its source may have stopped sending it. "
        "It stays firing until it is resolved there."
    ], "only the alert unheard of for 7.5 h"
    assert "Не приходило повторно уже 7 часов и 30 минут" in russian


def test_on_a_phone_each_alert_value_keeps_its_column_name(intake, rules, admin):
    """Editor tables turn into cards at phone width, labelled from `data-label`: a bare "1" or a
    date without its column says nothing to the responder reading it."""
    intake.post(AM, alertmanager("firing", service="billing", alertname="InvoiceQueueStuck"), format="json")
    client = APIClient()
    client.force_login(admin)
    page = client.get("/editor/intake/").content.decode()

    table = page[page.index('<table class="intake-alerts">') :]
    headers = re.findall(r"<th>([^<]+)</th>", table[: table.index("</thead>")])
    body = table[table.index("<tbody>") :]
    row = body[: body.index("</tr>")]
    assert re.findall(r'<td[^>]* data-label="([^"]+)"', row) == headers
    assert row.count("<td") == len(headers)
