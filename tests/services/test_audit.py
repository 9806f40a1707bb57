"""Every kind of change leaves an audit event naming who, what, before and after."""

import datetime as dt

from incidents.lifecycle.commands import DeclareIncident, PostUpdate, WritePostmortem
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.postmortems import publish_postmortem, save_action_item, write_postmortem
from incidents.lifecycle.updates import post_update
from incidents.models import ActionItem, AuditEvent, Component, ComponentGroup, Metric, Postmortem
from incidents.services.components import save_component, save_group, set_component_status
from incidents.services.metrics import save_metric


def events(subject_type):
    return list(AuditEvent.objects.filter(subject_type=subject_type).order_by("at", "id"))


def test_component_and_group_changes_are_audited(admin):
    group = save_group(ComponentGroup(slug="core", name={"en": "Core"}), actor=admin)
    component = save_component(Component(slug="api", name={"en": "API"}, group=group), actor=admin)
    component.name = {"en": "Public API"}
    save_component(component, actor=admin)
    created, renamed = events("component")
    assert created.action == "component.created" and created.actor_label == "ada"
    assert renamed.before == {"name": {"en": "API"}} and renamed.after == {"name": {"en": "Public API"}}
    assert events("component_group")[0].action == "group.created"


def test_status_change_is_audited_with_its_reason(component):
    set_component_status(
        component, status="major_outage", actor=None, reason="p95 1200 s", automation="probe"
    )
    event = events("component")[-1]
    assert event.actor_label == "probe"
    assert event.before == {"status": "operational"}
    assert event.after == {"status": "major_outage", "reason": "p95 1200 s"}


def test_metric_and_threshold_changes_are_audited_separately(admin, latency_metric):
    latency_metric.degraded_threshold = 30
    save_metric(latency_metric, actor=admin)
    latency_metric.unit = "ms"
    save_metric(latency_metric, actor=admin)
    (threshold,) = events("threshold")
    assert threshold.before == {"degraded_threshold": 60} and threshold.after == {"degraded_threshold": 30}
    (metric,) = events("metric")
    assert metric.after == {"unit": "ms"}


def test_incident_update_and_postmortem_changes_are_audited(responder, component):
    incident = declare_incident(
        DeclareIncident(title="Pool collapse", language="en", body="x"), actor=responder
    )
    post_update(
        incident, PostUpdate(status="identified", body={"en": "Found."}, language="en"), actor=responder
    )
    postmortem = write_postmortem(
        incident, WritePostmortem(language="en", sections={"summary": "It broke."}), actor=responder
    )
    publish_postmortem(postmortem, actor=responder)
    save_action_item(
        ActionItem(
            postmortem=Postmortem.objects.get(),
            title={"en": "Watchdog"},
            due_date=dt.date(2027, 1, 1),
            due_precision="quarter",
        ),
        actor=responder,
    )
    actions = list(
        AuditEvent.objects.filter(incident=incident).order_by("id").values_list("action", flat=True)
    )
    assert actions == [
        "incident.declared",
        "update.posted",
        "update.posted",
        "postmortem.written",
        "postmortem.published",
        "action_item.created",
    ]


def test_saving_without_changes_writes_no_event(admin, latency_metric):
    save_metric(Metric.objects.get(pk=latency_metric.pk), actor=admin)
    assert not AuditEvent.objects.exists()
