"""The audit trail in words: each event is a sentence in the reader's language, never a dict."""

import datetime as dt

import pytest
from django.utils import translation

from incidents.editor.audit_text import describe
from incidents.models import AuditEvent, ComponentStatus, Impact, IncidentStatus
from incidents.roles import Role


def event(action: str, subject_type: str, label: str, before=None, after=None, actor=None, **fields):
    return AuditEvent(
        at=dt.datetime(2026, 3, 4, 11, 42, tzinfo=dt.UTC),
        actor=actor,
        actor_label=actor.get_username() if actor else fields.pop("automation", "system"),
        action=action,
        subject_type=subject_type,
        subject_id="1",
        subject_label=label,
        before=before or {},
        after=after or {},
    )


def test_a_probe_driven_status_change_names_both_statuses_and_the_probes():
    line = describe(
        event(
            "component.status_changed",
            "component",
            "Webhook delivery",
            {"status": "operational"},
            {"status": "degraded_performance", "reason": "p95 of the last 5 samples = 75.0 s"},
            automation="probes",
        ),
        "en",
    )
    assert line.sentence == "Webhook delivery: Operational → Degraded performance"
    assert (line.actor, line.by_automation) == ("the probes", True)
    assert line.details == ["Reason: p95 of the last 5 samples = 75.0 s"]


@pytest.mark.django_db
def test_a_person_is_named_by_their_user_name(admin):
    line = describe(event("thresholds.changed", "threshold", "API: Latency", actor=admin), "en")
    assert (line.actor, line.by_automation) == ("ada", False)


def test_changed_fields_are_said_with_labels_and_localised_values():
    line = describe(
        event(
            "incident.edited",
            "incident",
            "Elevated API errors",
            {"impact": "minor", "title": {"en": "API errors"}},
            {"impact": "major", "title": {"en": "Elevated API errors"}},
        ),
        "en",
    )
    assert line.sentence == "Edited: Elevated API errors"
    assert line.details == ["Impact: Minor → Major", "Title: API errors → Elevated API errors"]


def test_an_update_says_its_status_and_names_its_long_text_instead_of_quoting_it():
    body = {"en": "We found the cause.\n\nA deploy at 11:02 changed the retry limit."}
    line = describe(
        event(
            "update.posted",
            "update",
            "Elevated API errors",
            after={"update_status": "identified", "body": body},
        ),
        "en",
    )
    assert line.sentence == "Update posted on Elevated API errors: Identified"
    assert line.details == ["Text written"]


def test_thresholds_and_booleans_are_numbers_and_words():
    line = describe(
        event(
            "thresholds.changed",
            "threshold",
            "API: Latency",
            {"degraded_threshold": 500.0, "higher_is_worse": True},
            {"degraded_threshold": 750.0, "higher_is_worse": False},
        ),
        "en",
    )
    assert line.details == ["Degraded performance at: 500 → 750", "Higher is worse: yes → no"]


def test_an_action_item_due_in_a_quarter_is_said_as_the_quarter():
    after = {
        "title": {"en": "Add a canary"},
        "due_date": "2027-01-01",
        "due_precision": "quarter",
        "owner_id": None,
    }
    line = describe(event("action_item.created", "action_item", "Add a canary", after=after), "en")
    assert line.sentence == "Action item added: Add a canary"
    assert "Due: 1st quarter 2027" in line.details and not any("owner_id" in d for d in line.details)


def test_a_role_change_names_both_roles():
    line = describe(event("user.role_changed", "user", "vera", {"role": None}, {"role": "viewer"}), "en")
    assert line.sentence == "Role of vera: No role → Viewer"


def test_an_unknown_action_still_reads_as_a_sentence():
    line = describe(event("probe.paused", "probe", "API health"), "en")
    assert line.sentence == "Probe API health: probe.paused"


def test_in_russian_statuses_impacts_and_roles_are_said_in_russian():
    with translation.override("ru"):
        expected = {
            "operational": str(ComponentStatus.OPERATIONAL.label),
            "major_outage": str(ComponentStatus.MAJOR_OUTAGE.label),
            "minor": str(Impact.MINOR.label),
            "critical": str(Impact.CRITICAL.label),
            "identified": str(IncidentStatus.IDENTIFIED.label),
            "viewer": str(Role.VIEWER.label),
        }
        status = describe(
            event(
                "component.status_changed",
                "component",
                "API",
                {"status": "operational"},
                {"status": "major_outage"},
            ),
            "ru",
        )
        impact = describe(
            event("incident.edited", "incident", "API", {"impact": "minor"}, {"impact": "critical"}), "ru"
        )
        update = describe(
            event("update.posted", "update", "API", after={"update_status": "identified"}), "ru"
        )
        role = describe(event("user.role_changed", "user", "vera", {"role": None}, {"role": "viewer"}), "ru")
    assert expected["major_outage"] != "Major outage"  # the catalog has it, so this test can fail
    assert f"API: {expected['operational']} → {expected['major_outage']}" == status.sentence
    assert any(f"{expected['minor']} → {expected['critical']}" in d for d in impact.details)
    assert expected["identified"] in update.sentence
    assert role.sentence.endswith(expected["viewer"])


def test_a_new_records_name_is_said_once_in_any_language():
    after = {"title": {"en": "Add a canary", "ru": "Добавить канарейку"}, "state": "open"}
    created = event("action_item.created", "action_item", "Add a canary", after=after)
    renamed = event(
        "action_item.changed",
        "action_item",
        "Add a canary",
        {"title": {"en": "Canary"}},
        {"title": after["title"]},
    )
    assert not any("канарейку" in detail for detail in describe(created, "ru").details)
    assert describe(created, "en").details == ["State: Open"]
    assert describe(renamed, "en").details == ["Title: Canary → Add a canary"]
