"""Probes are created and edited in the admin for now, with the kind's checks as form errors."""

import pytest
from django.contrib.auth import get_user_model

from incidents.models import AuditEvent, Probe


@pytest.fixture
def staff_client(client, db):
    user = get_user_model().objects.create_superuser("sam", "sam@example.com", "correct horse battery")
    client.force_login(user)
    return client


def form(metric, **overrides):
    data = {
        "name": "API health",
        "kind": "http",
        "metric": metric.pk,
        "enabled": "on",
        "url": "http://127.0.0.1:8401/ok",
        "config": '{"expected_status": [200]}',
        "interval": 60,
        "connect_timeout": 3,
        "read_timeout": 5,
        "timeout": 5,
    }
    return {**data, **overrides}


def test_a_probe_is_created_in_the_admin_and_audited(staff_client, make_metric, automatic_component):
    metric = make_metric(automatic_component)
    assert staff_client.get("/admin/incidents/probe/add/").status_code == 200
    response = staff_client.post("/admin/incidents/probe/add/", form(metric))
    assert response.status_code == 302
    probe = Probe.objects.get()
    assert probe.next_run_at is not None
    assert AuditEvent.objects.filter(action="probe.created", actor_label="sam").exists()


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"url": "http://169.254.169.254/"}, "metadata"),
        ({"config": '{"method": "DELETE"}'}, "GET, HEAD or POST"),
        ({"interval": 3}, "interval must be between"),
        ({"timeout": 90}, "timeout must be between"),
    ],
)
def test_bad_probes_are_refused_with_a_clear_error(
    staff_client, make_metric, automatic_component, overrides, message, settings
):
    settings.PROBE_MIN_INTERVAL = 10
    metric = make_metric(automatic_component)
    response = staff_client.post("/admin/incidents/probe/add/", form(metric, **overrides))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Probe.objects.exists()


def test_a_push_token_is_shown_once_and_stored_hashed(staff_client, push_probe):
    response = staff_client.post(
        "/admin/incidents/probe/",
        {"action": "issue_token", "_selected_action": [push_probe.pk]},
        follow=True,
    )
    push_probe.refresh_from_db()
    page = response.content.decode()
    token = page.split("not shown again): ")[1].split("<")[0].strip()
    assert push_probe.push_token_matches(token)
    assert token not in push_probe.push_token_hash
