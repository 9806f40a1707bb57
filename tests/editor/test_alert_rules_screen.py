"""Alert rules in the editor: written as Alertmanager matchers, checked field by field, audited
in words; unknown alerts offer a rule made from their own labels."""

import pytest
from django.utils import timezone

from incidents.models import AlertRule, AuditEvent, IntakeAlert, StatusMode

pytestmark = pytest.mark.django_db


@pytest.fixture
def automatic(make_component):
    return make_component("queue", name={"en": "Job queue"}, status_mode=StatusMode.AUTOMATIC)


def form(component, **changes):
    return {
        "name": "Queue paging",
        "source": "",
        "matchers": 'service="queue"\nseverity=~"critical|page"',
        "component": component.pk,
        "status": "major_outage",
        "open_incident": "on",
        "position": 1,
        "enabled": "on",
        **changes,
    }


def test_an_admin_writes_a_rule_and_the_trail_says_so(client, admin, automatic):
    client.force_login(admin)

    response = client.post("/editor/intake/rules/new/", form(automatic))

    assert response.status_code == 302
    rule = AlertRule.objects.get()
    assert rule.matchers == ['service="queue"', 'severity=~"critical|page"']
    page = client.get("/editor/intake/").content.decode()
    assert "Queue paging" in page and "severity=~&quot;critical|page&quot;" in page
    assert AuditEvent.objects.filter(action="alert_rule.created").exists()
    audit = client.get("/editor/audit/").content.decode()
    assert "Alert rule Queue paging created" in audit


@pytest.mark.parametrize(
    "matchers",
    ["service", 'service=="queue"', 'severity=~"(unclosed"', "", "\n".join(f'l{n}="x"' for n in range(21))],
)
def test_a_bad_matcher_is_named_on_its_field_and_nothing_is_saved(client, admin, automatic, matchers):
    client.force_login(admin)

    response = client.post("/editor/intake/rules/new/", form(automatic, matchers=matchers))

    assert response.status_code == 200
    assert response.context["form"].errors["matchers"]
    assert not AlertRule.objects.exists()


def test_components_set_by_hand_are_not_offered(client, admin, make_component, automatic):
    manual = make_component("docs", name={"en": "Docs"}, status_mode=StatusMode.MANUAL)
    client.force_login(admin)

    response = client.post("/editor/intake/rules/new/", form(manual))

    assert response.status_code == 200 and "component" in response.context["form"].errors
    assert not AlertRule.objects.exists()


def test_an_unknown_alert_offers_a_rule_from_its_labels(client, admin, automatic):
    alert = IntakeAlert.objects.create(
        source="grafana",
        fingerprint="ab12",
        name="QueueDepth",
        state="firing",
        labels={"alertname": "QueueDepth", "service": "queue", "instance": "q1:9100"},
        starts_at=timezone.now(),
    )
    client.force_login(admin)

    page = client.get("/editor/intake/").content.decode()
    assert f"?from_alert={alert.public_id}" in page
    prefilled = client.get(f"/editor/intake/rules/new/?from_alert={alert.public_id}")

    initial = prefilled.context["form"].initial
    assert initial["source"] == "grafana"
    assert initial["matchers"] == 'alertname="QueueDepth"\nservice="queue"'


def test_viewers_see_rules_and_alerts_but_cannot_edit(client, viewer, admin, automatic):
    AlertRule.objects.create(name="Queue", matchers=['service="queue"'], component=automatic)
    client.force_login(viewer)

    page = client.get("/editor/intake/")

    assert page.status_code == 200 and "Queue" in page.content.decode()
    assert "/editor/intake/rules/new/" not in page.content.decode()
    assert client.get("/editor/intake/rules/new/").status_code == 403
