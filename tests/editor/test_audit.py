"""Every editor change leaves an audit event; the trail is filterable and config changes stand out."""

import datetime as dt
import html

import pytest
import time_machine
from django.utils.html import strip_tags

from incidents.intake.rules import save_alert_rule
from incidents.models import AlertRule, AuditEvent, Component, ComponentGroup
from incidents.roles import role_of
from incidents.services.components import save_component
from incidents.services.metrics import record_sample

from .conftest import logged_in


def text_of(response) -> str:
    """The page as a reader sees it: no tags, entities decoded, white space collapsed."""
    return " ".join(html.unescape(strip_tags(response.content.decode())).split())


@pytest.mark.django_db
def test_editor_changes_write_audit_events_with_before_and_after(responder, incident):
    client = logged_in(responder)
    client.post(
        f"/editor/incidents/{incident.pk}/edit/",
        {
            "title": "Renamed",
            "impact": "critical",
            "display_time_zone": "Europe/Moscow",
            "version": incident.version,
        },
    )
    event = AuditEvent.objects.get(action="incident.edited")
    assert event.actor == responder and event.actor_label == "rita"
    assert event.before == {
        "title": {"en": "Elevated API errors"},
        "impact": "major",
        "display_time_zone": "",
    }
    assert event.after == {
        "title": {"en": "Renamed"},
        "impact": "critical",
        "display_time_zone": "Europe/Moscow",
    }
    assert event.incident == incident


@pytest.mark.django_db
def test_the_incident_page_shows_its_own_trail(responder, incident, make_component):
    other = make_component("other")
    Component.objects.filter(pk=other.pk)  # an unrelated change must not show up
    client = logged_in(responder)
    client.post(
        f"/editor/incidents/{incident.pk}/updates/",
        {"status": "identified", "language": "en", "body": "Found."},
    )
    page = client.get(f"/editor/incidents/{incident.pk}/").content.decode()
    assert "Update posted on Elevated API errors: Identified" in page
    assert "Incident declared: Elevated API errors" in page
    assert f"Component {other} created" not in page


@pytest.mark.django_db
def test_admin_threshold_change_is_on_the_editor_overview(admin, viewer, metric):
    client = logged_in(admin)
    client.post(
        f"/editor/metrics/{metric.pk}/",
        {
            "slug": "latency",
            "kind": "latency",
            "unit": "ms",
            "precision": 0,
            "aggregation": "p95",
            "window": 5,
            "expected_interval": 60,
            "higher_is_worse": "on",
            "degraded_threshold": 750,
            "major_outage_threshold": 2000,
            "position": 0,
            "name_en": "Latency",
        },
    )
    event = AuditEvent.objects.get(action="thresholds.changed")
    assert event.before == {"degraded_threshold": 500.0} and event.after == {"degraded_threshold": 750.0}
    overview = logged_in(viewer).get("/editor/").content.decode()
    assert f"Thresholds of {metric} changed, by ada" in overview


@pytest.mark.django_db
def test_threshold_order_is_validated_and_the_input_kept(admin, metric):
    response = logged_in(admin).post(
        f"/editor/metrics/{metric.pk}/",
        {
            "slug": "latency",
            "kind": "latency",
            "unit": "ms",
            "precision": 0,
            "aggregation": "p95",
            "window": 5,
            "expected_interval": 60,
            "higher_is_worse": "on",
            "degraded_threshold": 3000,
            "major_outage_threshold": 2000,
            "position": 0,
            "name_en": "Latency",
        },
    )
    assert response.status_code == 200
    assert b"must be below" in response.content and b'value="3000' in response.content
    metric.refresh_from_db()
    assert metric.degraded_threshold == 500


@pytest.mark.django_db
def test_component_screen_shows_latest_value_and_recent_samples(admin, metric):
    for value in (120.0, 640.0, 2500.0):
        record_sample(metric, value=value)
    page = logged_in(admin).get(f"/editor/components/{metric.component_id}/").content.decode()
    assert "2,500" in page  # the latest value, formatted
    assert "<td>640</td>" in page and "<td>120</td>" in page  # samples with the metric's decimals
    assert "Major outage" in page and "Degraded performance" in page  # what each sample would mean


@pytest.mark.django_db
def test_audit_page_filters_by_object_user_and_time(admin, responder, viewer, incident, make_component):
    with time_machine.travel(dt.datetime(2026, 1, 10, 12, 0, tzinfo=dt.UTC), tick=False):
        logged_in(admin).post(
            "/editor/components/new/",
            {"slug": "search", "position": 0, "status_mode": "manual", "name_en": "Search"},
        )
    client = logged_in(viewer)
    by_user = client.get("/editor/audit/?actor=ada").content.decode()
    created, declared = "Component Search created", "Incident declared: Elevated API errors"
    assert created in by_user and declared not in by_user
    by_object = client.get(f"/editor/audit/?subject_type=incident&subject_id={incident.pk}").content.decode()
    assert declared in by_object and created not in by_object
    by_time = client.get("/editor/audit/?since=2026-01-10T00:00&until=2026-01-11T00:00").content.decode()
    assert created in by_time and declared not in by_time


@pytest.mark.django_db
def test_a_bad_component_slug_is_refused_and_kept(admin, api):
    response = logged_in(admin).post(
        "/editor/components/new/",
        {"slug": "public-api", "position": 0, "status_mode": "manual", "name_en": "Twin"},
    )
    assert response.status_code == 200
    assert b"already exists" in response.content and b'value="Twin"' in response.content
    assert Component.objects.count() == 1


@pytest.mark.django_db
def test_an_admin_gives_a_role_and_the_trail_says_so(admin, outsider):
    client = logged_in(admin)
    client.post(f"/editor/users/{outsider.pk}/role/", {f"u{outsider.pk}-role": "viewer"})
    assert role_of(outsider) == "viewer"
    event = AuditEvent.objects.get(action="user.role_changed")
    assert (event.before, event.after, event.actor) == ({"role": None}, {"role": "viewer"}, admin)
    client.post(f"/editor/users/{outsider.pk}/role/", {f"u{outsider.pk}-role": ""})
    assert role_of(outsider) is None


@pytest.mark.django_db
def test_an_admin_cannot_change_their_own_role(admin):
    response = logged_in(admin).post(
        f"/editor/users/{admin.pk}/role/", {f"u{admin.pk}-role": "viewer"}, follow=True
    )
    assert b"You cannot change your own role." in response.content
    assert role_of(admin) == "admin"


@pytest.mark.django_db
def test_a_new_alert_rule_is_listed_by_what_it_does_with_its_component_named(admin, make_component):
    queue = make_component("queue", name={"en": "Job queue", "ru": "Очередь задач"}, status_mode="automatic")
    rule = AlertRule(name="Queue backlog", matchers=['alertname="QueueBacklog"'], component=queue)
    rule.source = "grafana"
    save_alert_rule(rule, actor=admin)
    rule.source = ""
    save_alert_rule(rule, actor=admin)
    client = logged_in(admin)

    page = text_of(client.get("/editor/audit/"))
    in_russian = text_of(client.get("/editor/audit/", HTTP_ACCEPT_LANGUAGE="ru"))

    assert "Component: Job queue" in page and "Source: Grafana alerting → Any source" in page
    assert "Очередь задач" in in_russian
    created = page.split("Alert rule Queue backlog created", 1)[1]
    assert "—" not in created and "Component id" not in created
    assert "Name: Queue backlog" not in created  # the sentence names it


@pytest.mark.django_db
def test_moving_a_component_between_groups_names_the_groups(admin, make_component):
    core = ComponentGroup.objects.create(slug="core", name={"en": "Core"})
    edge = ComponentGroup.objects.create(slug="edge", name={"en": "Edge"})
    api = make_component("api", name={"en": "API"}, group=core)
    for group in (edge, None):
        api.group = group
        save_component(api, actor=admin)
    client = logged_in(admin)

    page = text_of(client.get("/editor/audit/"))
    edge_id = edge.pk
    edge.delete()
    after_deletion = text_of(client.get("/editor/audit/"))

    assert "Group: Core → Edge" in page and "Group: Edge → no group" in page
    assert f"Group: Core → a deleted record (id {edge_id})" in after_deletion
