"""A component's uptime target through the REST API: read, written, refused when out of range, audited."""

from decimal import Decimal

import pytest

from incidents.models import AuditEvent, Component
from tests.api.conftest import build_page

pytestmark = pytest.mark.django_db


def test_the_api_reads_and_writes_the_target(admin, client_as):
    page = build_page(admin)
    writer = client_as("write_token")
    url = f"/api/v1/components/{page['rest'].public_id}/"

    response = writer.patch(url, {"uptime_target": "99.9"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["uptime_target"] == "99.900"
    refused = writer.patch(url, {"uptime_target": "101"}, format="json")
    assert refused.status_code == 400 and "uptime_target" in str(refused.json())
    assert Component.objects.get(pk=page["rest"].pk).uptime_target == Decimal("99.900")
    assert AuditEvent.objects.filter(action="component.changed", after={"uptime_target": "99.900"}).exists()
