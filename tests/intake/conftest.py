import pytest
from rest_framework.test import APIClient

from incidents.intake.rules import save_alert_rule
from incidents.models import AlertRule, StatusMode, TokenScope
from incidents.services.api_tokens import issue_token


@pytest.fixture
def webhooks(make_component, group):
    return make_component(
        "webhooks", group=group, name={"en": "Webhook delivery"}, status_mode=StatusMode.AUTOMATIC
    )


@pytest.fixture
def api_component(make_component, group):
    return make_component(
        "public-api", group=group, name={"en": "Public API"}, status_mode=StatusMode.AUTOMATIC
    )


@pytest.fixture
def rules(webhooks, api_component, admin):
    critical = save_alert_rule(
        AlertRule(
            name="Webhooks critical",
            matchers=['service="webhooks"', 'severity="critical"'],
            component=webhooks,
            status="major_outage",
            position=1,
        ),
        actor=admin,
    )
    api = save_alert_rule(
        AlertRule(
            name="API warnings",
            source="grafana",
            matchers=['service="api"', 'severity=~"warning|critical"'],
            component=api_component,
            status="degraded_performance",
            position=2,
        ),
        actor=admin,
    )
    return critical, api


@pytest.fixture
def intake(responder):
    """A client with an intake token, as Alertmanager's http_config.authorization sends it."""
    _token, secret = issue_token(responder, name="alertmanager", scope=TokenScope.INTAKE, actor=responder)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client
