"""Scheduled maintenance starts and completes by itself; overdue reminders go out once a day."""

import datetime as dt

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core import mail

from incidents.lifecycle.commands import DeclareIncident, ScheduleMaintenance, WritePostmortem
from incidents.lifecycle.opening import declare_incident, schedule_maintenance
from incidents.lifecycle.postmortems import save_action_item, write_postmortem
from incidents.models import ActionItem, AuditEvent, ComponentStatus, OverdueReminder
from incidents.services import reminders
from incidents.tasks.maintenance import advance_maintenance_windows, send_overdue_action_item_reminders

START = dt.datetime(2026, 7, 1, 22, 0, tzinfo=dt.UTC)
END = START + dt.timedelta(hours=2)


@pytest.fixture
def maintenance(make_component, responder):
    api = make_component("public-api")
    db = make_component("database")
    with time_machine.travel(START - dt.timedelta(days=2), tick=False):
        return schedule_maintenance(
            ScheduleMaintenance(
                title="Database upgrade",
                language="nb",
                body="Vi oppgraderer databasen.",
                component_statuses=dict.fromkeys([api, db], ComponentStatus.UNDER_MAINTENANCE),
                scheduled_for=START,
                scheduled_until=END,
            ),
            actor=responder,
        )


def _statuses(maintenance):
    return sorted(maintenance.components.values_list("slug", "status"))


@pytest.mark.django_db
def test_maintenance_waits_for_its_window(maintenance):
    with time_machine.travel(START - dt.timedelta(minutes=1), tick=False):
        assert advance_maintenance_windows() == (0, 0)
    maintenance.refresh_from_db()
    assert maintenance.status == "scheduled"
    assert _statuses(maintenance) == [("database", "operational"), ("public-api", "operational")]


@pytest.mark.django_db
def test_maintenance_starts_and_completes_on_schedule(maintenance):
    with time_machine.travel(START + dt.timedelta(seconds=30), tick=False):
        assert advance_maintenance_windows() == (1, 0)
    maintenance.refresh_from_db()
    assert maintenance.status == "in_progress"
    assert _statuses(maintenance) == [("database", "under_maintenance"), ("public-api", "under_maintenance")]
    started = maintenance.updates.timeline().first()
    assert started.status == "in_progress" and started.author is None
    assert started.original_language == "nb" and started.body["nb"]  # in the maintenance's language

    with time_machine.travel(END + dt.timedelta(seconds=30), tick=False):
        assert advance_maintenance_windows() == (0, 1)
    maintenance.refresh_from_db()
    assert maintenance.status == "completed" and maintenance.resolved_at is not None
    assert _statuses(maintenance) == [("database", "operational"), ("public-api", "operational")]
    assert maintenance.updates.count() == 3
    assert (
        AuditEvent.objects.filter(incident=maintenance, action="update.posted", actor__isnull=True).count()
        == 2
    )


@pytest.mark.django_db
def test_running_the_sweep_twice_posts_nothing_twice(maintenance):
    with time_machine.travel(START + dt.timedelta(minutes=1), tick=False):
        advance_maintenance_windows()
        assert advance_maintenance_windows() == (0, 0)
    assert maintenance.updates.count() == 2


@pytest.mark.django_db
def test_a_missed_window_starts_and_completes_in_one_sweep(maintenance):
    with time_machine.travel(END + dt.timedelta(hours=1), tick=False):
        assert advance_maintenance_windows() == (1, 1)
    maintenance.refresh_from_db()
    assert maintenance.status == "completed"
    assert _statuses(maintenance) == [("database", "operational"), ("public-api", "operational")]


@pytest.mark.django_db
def test_completing_leaves_a_component_an_open_incident_still_holds(maintenance, responder):
    api = maintenance.components.get(slug="public-api")
    with time_machine.travel(START + dt.timedelta(minutes=1), tick=False):
        advance_maintenance_windows()
        declare_incident(
            DeclareIncident(
                title="API down", language="en", body="Down.", component_statuses={api: "major_outage"}
            ),
            actor=responder,
        )
    with time_machine.travel(END + dt.timedelta(minutes=1), tick=False):
        advance_maintenance_windows()
    assert _statuses(maintenance) == [("database", "operational"), ("public-api", "major_outage")]


@pytest.mark.django_db
def test_a_draft_maintenance_does_not_start(make_component, responder):
    api = make_component("public-api")
    with time_machine.travel(START - dt.timedelta(days=1), tick=False):
        draft = schedule_maintenance(
            ScheduleMaintenance(
                title="Draft",
                language="en",
                body="Maybe.",
                component_statuses=dict.fromkeys([api], ComponentStatus.UNDER_MAINTENANCE),
                scheduled_for=START,
                scheduled_until=END,
                publish=False,
            ),
            actor=responder,
        )
    with time_machine.travel(START + dt.timedelta(minutes=1), tick=False):
        assert advance_maintenance_windows() == (0, 0)
    draft.refresh_from_db()
    assert draft.status == "scheduled"


# --- Overdue reminders ---------------------------------------------------------------------------


@pytest.fixture
def overdue_world(make_component, responder, admin):
    responder.email = "rita@example.com"
    responder.save()
    admin.email = "ada@example.com"
    admin.save()
    nobody = get_user_model().objects.create_user(username="noemail", password="x")
    with time_machine.travel(dt.datetime(2026, 3, 1, tzinfo=dt.UTC), tick=False):
        incident = declare_incident(
            DeclareIncident(title="Outage", language="en", body="Down."), actor=responder
        )
        postmortem = write_postmortem(
            incident, WritePostmortem(language="en", sections={"summary": "x"}), actor=responder
        )

        def add(title, **fields):
            save_action_item(
                ActionItem(postmortem=postmortem, title={"en": title}, **fields), actor=responder
            )

        add("Canary", owner=responder, due_date=dt.date(2026, 3, 10))
        add("Alerting", owner=responder, due_date=dt.date(2026, 3, 1), due_precision="month")
        add("Runbook", owner=responder, due_date=dt.date(2026, 1, 1), due_precision="quarter")
        add("Capacity", owner=admin, due_date=dt.date(2026, 4, 1), due_precision="quarter")  # not overdue yet
        add("Backups", owner=admin, due_date=dt.date(2026, 3, 2))
        add("Done already", owner=admin, due_date=dt.date(2026, 3, 2), state="done")
        add("Free text owner", owner_name="Ops", due_date=dt.date(2026, 3, 2))
        add("No address", owner=nobody, due_date=dt.date(2026, 3, 2))


@pytest.mark.django_db
def test_one_reminder_per_owner_whatever_the_number_of_items(overdue_world):
    with time_machine.travel(dt.datetime(2026, 4, 2, 8, 0, tzinfo=dt.UTC), tick=False):
        assert send_overdue_action_item_reminders() == 2
    by_recipient = {message.to[0]: message for message in mail.outbox}
    assert sorted(by_recipient) == ["ada@example.com", "rita@example.com"]
    rita = by_recipient["rita@example.com"]
    assert "3 overdue action items" in rita.subject
    assert "Canary" in rita.body and "Alerting" in rita.body and "Runbook" in rita.body
    ada = by_recipient["ada@example.com"]
    assert "1 overdue action item" in ada.subject
    assert "Backups" in ada.body and "Capacity" not in ada.body and "Done already" not in ada.body


@pytest.mark.django_db
def test_reminders_go_out_once_a_day(overdue_world):
    with time_machine.travel(dt.datetime(2026, 4, 2, 8, 0, tzinfo=dt.UTC), tick=False):
        send_overdue_action_item_reminders()
    with time_machine.travel(dt.datetime(2026, 4, 2, 20, 0, tzinfo=dt.UTC), tick=False):
        assert send_overdue_action_item_reminders() == 0
    assert len(mail.outbox) == 2
    assert OverdueReminder.objects.filter(state="sent").count() == 2
    with time_machine.travel(dt.datetime(2026, 4, 3, 8, 0, tzinfo=dt.UTC), tick=False):
        assert send_overdue_action_item_reminders() == 2
    assert len(mail.outbox) == 4


@pytest.mark.django_db
def test_the_day_is_the_status_page_day(overdue_world, settings):
    settings.STATUS_TIME_ZONE = "Europe/Oslo"
    settings.OVERDUE_REMINDER_HOUR = 0
    # 22:30 UTC on 2 April is already 3 April in Oslo; 23:30 UTC is still 3 April there.
    with time_machine.travel(dt.datetime(2026, 4, 2, 22, 30, tzinfo=dt.UTC), tick=False):
        send_overdue_action_item_reminders()
    with time_machine.travel(dt.datetime(2026, 4, 2, 23, 30, tzinfo=dt.UTC), tick=False):
        assert send_overdue_action_item_reminders() == 0
    assert set(OverdueReminder.objects.values_list("day", flat=True)) == {dt.date(2026, 4, 3)}


@pytest.mark.django_db
def test_no_reminder_before_the_working_day_starts(overdue_world, settings):
    settings.STATUS_TIME_ZONE = "Europe/Oslo"
    settings.OVERDUE_REMINDER_HOUR = 8
    with time_machine.travel(dt.datetime(2026, 4, 2, 5, 30, tzinfo=dt.UTC), tick=False):  # 07:30 in Oslo
        assert send_overdue_action_item_reminders() == 0
    with time_machine.travel(dt.datetime(2026, 4, 2, 6, 30, tzinfo=dt.UTC), tick=False):  # 08:30 in Oslo
        assert send_overdue_action_item_reminders() == 2
    assert len(mail.outbox) == 2


@pytest.mark.django_db
def test_a_failed_send_waits_for_the_next_sweep_and_holds_back_no_other_owner(overdue_world, monkeypatch):
    real_mail = reminders.overdue_reminder_mail

    def mail_failing_for_rita(owner, items):
        message = real_mail(owner, items)
        if owner.email == "rita@example.com":
            message.send = lambda: (_ for _ in ()).throw(ConnectionError("SMTP refused the connection"))
        return message

    with time_machine.travel(dt.datetime(2026, 4, 2, 8, 0, tzinfo=dt.UTC), tick=False):
        monkeypatch.setattr(reminders, "overdue_reminder_mail", mail_failing_for_rita)
        assert send_overdue_action_item_reminders() == 1
        assert [message.to for message in mail.outbox] == [["ada@example.com"]]
        monkeypatch.undo()
    with time_machine.travel(dt.datetime(2026, 4, 2, 9, 0, tzinfo=dt.UTC), tick=False):
        assert send_overdue_action_item_reminders() == 1
    assert sorted(message.to[0] for message in mail.outbox) == ["ada@example.com", "rita@example.com"]


def stop_worker_after_claiming(monkeypatch):
    """The worker stops (killed) once it has claimed the first owner's row, before sending."""

    def killed(owner, items):
        raise SystemExit("worker killed")

    monkeypatch.setattr(reminders, "overdue_reminder_mail", killed)
    with pytest.raises(SystemExit):
        send_overdue_action_item_reminders()
    monkeypatch.undo()


@pytest.mark.django_db
def test_a_claim_left_by_a_stopped_worker_is_sent_by_a_later_sweep_the_same_day(overdue_world, monkeypatch):
    with time_machine.travel(dt.datetime(2026, 4, 2, 8, 0, tzinfo=dt.UTC), tick=False):
        stop_worker_after_claiming(monkeypatch)
    assert OverdueReminder.objects.get(state="sending")
    with time_machine.travel(dt.datetime(2026, 4, 2, 8, 5, tzinfo=dt.UTC), tick=False):
        # Another sweep while the claim may still be in flight sends only the other owner.
        assert send_overdue_action_item_reminders() == 1
    with time_machine.travel(dt.datetime(2026, 4, 2, 9, 0, tzinfo=dt.UTC), tick=False):
        assert send_overdue_action_item_reminders() == 1
    assert sorted(message.to[0] for message in mail.outbox) == ["ada@example.com", "rita@example.com"]
    assert set(OverdueReminder.objects.values_list("state", flat=True)) == {"sent"}


@pytest.mark.django_db
def test_a_reminder_whose_day_ended_unsent_ends_as_missed(overdue_world, monkeypatch, settings):
    settings.STATUS_TIME_ZONE = "UTC"
    settings.OVERDUE_REMINDER_HOUR = 8
    with time_machine.travel(dt.datetime(2026, 4, 2, 23, 0, tzinfo=dt.UTC), tick=False):
        stop_worker_after_claiming(monkeypatch)
    with time_machine.travel(dt.datetime(2026, 4, 3, 1, 0, tzinfo=dt.UTC), tick=False):  # before 08:00
        assert send_overdue_action_item_reminders() == 0
    states = dict(OverdueReminder.objects.values_list("day", "state"))
    assert states == {dt.date(2026, 4, 2): "missed"}
    with time_machine.travel(dt.datetime(2026, 4, 3, 8, 0, tzinfo=dt.UTC), tick=False):
        assert send_overdue_action_item_reminders() == 2
