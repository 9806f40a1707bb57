"""Record mode: an incident entered as a record of the past (Statuspage's `backfilled`) notifies
nobody, leaves current component status alone, and counts on its own days."""

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator

from incidents.formatting import status_zone
from incidents.lifecycle.commands import DeclareIncident, EnterRecord, PostUpdate, ResolveIncident
from incidents.lifecycle.opening import declare_incident, enter_record
from incidents.lifecycle.updates import post_update, resolve_incident
from incidents.models import (
    AuditEvent,
    Component,
    ComponentStatusChange,
    Delivery,
    Incident,
    StatusPeriod,
    UptimeMonth,
)
from incidents.selectors.uptime import uptime_by_month, uptime_days
from incidents.services.subscriptions import confirm_subscription, subscribe
from tests.conftest import database_rows
from tests.hostile.conftest import assert_api_refused

pytestmark = pytest.mark.django_db


@pytest.fixture
def writer(client_as):
    return client_as("write_token")


@pytest.fixture
def mail_component(db):
    created = timezone.now() - dt.timedelta(days=200)
    component = Component.objects.create(slug="mail", name={"en": "Mail"}, status_changed_at=created)
    StatusPeriod.objects.create(component=component, status="operational", started_at=created)
    return component


@pytest.fixture
def everyone(mail_component):
    """A confirmed email subscriber to every component."""
    created = subscribe(email="all@example.com", language="en", components=[mail_component], send_mail=False)
    return confirm_subscription(created.subscriber)


def enter_record_through_api(writer, component, *, start: dt.datetime, minutes: int) -> dict:
    """A record entered as a team moving its history would: declare, a note, the resolution."""
    declared = writer.post(
        "/api/v1/incidents/",
        {
            "title": "Mail delayed",
            "language": "en",
            "body": "Outgoing mail was queued.",
            "impact": "major",
            "started_at": start.isoformat(),
            "components": [{"component": component.public_id, "status": "partial_outage"}],
            "backfilled": True,
        },
        format="json",
    )
    assert declared.status_code == 201, declared.content
    incident = declared.json()
    noted = writer.post(
        f"/api/v1/incidents/{incident['id']}/updates/",
        {
            "status": "identified",
            "language": "en",
            "body": "A relay refused connections.",
            "display_at": (start + dt.timedelta(minutes=minutes // 2)).isoformat(),
        },
        format="json",
    )
    assert noted.status_code == 201, noted.content
    resolved = writer.post(
        f"/api/v1/incidents/{incident['id']}/resolve/",
        {
            "language": "en",
            "body": "The relay was replaced.",
            "display_at": (start + dt.timedelta(minutes=minutes)).isoformat(),
        },
        format="json",
    )
    assert resolved.status_code == 200, resolved.content
    return resolved.json()


def test_a_2018_record_notifies_nobody_and_leaves_the_current_status(
    writer, mail_component, everyone, django_capture_on_commit_callbacks
):
    start = dt.datetime(2018, 7, 13, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=3)))

    with django_capture_on_commit_callbacks(execute=True):
        record = enter_record_through_api(writer, mail_component, start=start, minutes=60)

    assert Delivery.objects.count() == 0
    assert mail.outbox == []
    mail_component.refresh_from_db()
    assert mail_component.status == "operational"
    assert not ComponentStatusChange.objects.filter(component=mail_component).exists()
    assert record["backfilled"] is True
    assert [u["deliver_notifications"] for u in record["updates"]] == [False, False, False]
    assert record["started_at"].startswith("2018-07-13T")
    assert AuditEvent.objects.filter(action="incident.entered_as_record", after__backfilled=True).exists()


def test_a_2018_record_counts_in_its_own_month(writer, mail_component):
    mail_component.start_date = dt.date(2018, 1, 1)
    mail_component.save()
    start = dt.datetime(2018, 7, 13, 10, 0, tzinfo=dt.UTC)

    enter_record_through_api(writer, mail_component, start=start, minutes=90)

    july = UptimeMonth.objects.get(component=mail_component, month=dt.date(2018, 7, 1))
    assert july.partial_outage_seconds == 90 * 60
    # Its day counts as observed, the rest of it operational: 22.5 h, not a 0 % day.
    assert july.operational_seconds == 24 * 3600 - 90 * 60


def test_a_record_ten_days_ago_shows_on_its_own_day_and_not_today(writer, mail_component, client):
    today_before = uptime_days([mail_component])[mail_component.pk][-1]
    local_day = (timezone.now() - dt.timedelta(days=10)).astimezone(status_zone()).date()
    start = dt.datetime.combine(local_day, dt.time(11, 0), tzinfo=status_zone())

    enter_record_through_api(writer, mail_component, start=start, minutes=60)

    days = uptime_days([mail_component])[mail_component.pk]
    own_day = next(span for span in days if span.date == local_day)
    assert own_day.down_seconds == 3600
    assert [row["incident__title"]["en"] for row in own_day.incidents] == ["Mail delayed"]
    assert days[-1].worst == today_before.worst == "operational"
    assert days[-1].down_seconds == 0 and days[-1].degraded_seconds == 0
    _months, by_month = uptime_by_month([mail_component], months=2)
    assert sum(span.down_seconds for span in by_month[mail_component.pk]) == 3600
    mail_component.refresh_from_db()
    assert mail_component.status == "operational"
    assert (
        StatusPeriod.objects.filter(component=mail_component, ended_at__isnull=True).get().status
        == "operational"
    )
    overview = client.get("/").content.decode()
    assert "down for 1 hour" in overview


def test_a_record_never_hides_an_outage_that_was_observed(admin, mail_component):
    local_day = (timezone.now() - dt.timedelta(days=5)).astimezone(status_zone()).date()
    noon = dt.datetime.combine(local_day, dt.time(12, 0), tzinfo=status_zone())
    open_period = StatusPeriod.objects.get(component=mail_component)
    StatusPeriod.objects.filter(pk=open_period.pk).update(ended_at=noon)
    StatusPeriod.objects.create(
        component=mail_component,
        status="major_outage",
        started_at=noon,
        ended_at=noon + dt.timedelta(hours=1),
    )
    StatusPeriod.objects.create(
        component=mail_component, status="operational", started_at=noon + dt.timedelta(hours=1)
    )
    record = enter_record(
        EnterRecord(
            title="Mail slow",
            language="en",
            body="Slow.",
            component_statuses={mail_component: "degraded_performance"},
            started_at=noon - dt.timedelta(minutes=30),
        ),
        actor=admin,
    )
    resolve_incident(
        record,
        ResolveIncident(body={"en": "Done."}, language="en", display_at=noon + dt.timedelta(hours=2)),
        actor=admin,
    )

    periods = list(
        StatusPeriod.objects.filter(component=mail_component).values_list("status", "started_at", "ended_at")
    )
    assert [p[0] for p in periods] == [
        "operational",
        "degraded_performance",
        "major_outage",
        "degraded_performance",
        "operational",
    ]
    assert all(a[2] == b[1] for a, b in zip(periods, periods[1:], strict=False)), "periods stay contiguous"
    assert periods[-1][2] is None


def test_an_update_sends_only_when_it_notifies(admin, mail_component, everyone):
    live = declare_incident(
        DeclareIncident(
            title="Mail slow",
            language="en",
            body="Slow.",
            component_statuses={mail_component: "degraded_performance"},
        ),
        actor=admin,
    )
    before = Delivery.objects.count()

    post_update(
        live, PostUpdate(status="identified", body={"en": "Quiet."}, language="en", notify=False), actor=admin
    )
    assert Delivery.objects.count() == before

    post_update(live, PostUpdate(status="monitoring", body={"en": "Told."}, language="en"), actor=admin)
    assert Delivery.objects.count() == before + 1


def test_update_notify_flag_through_the_api(writer, mail_component, everyone):
    declared = writer.post(
        "/api/v1/incidents/",
        {
            "title": "Mail slow",
            "language": "en",
            "body": "Slow.",
            "components": [{"component": mail_component.public_id, "status": "degraded_performance"}],
        },
        format="json",
    ).json()
    before = Delivery.objects.count()

    quiet = writer.post(
        f"/api/v1/incidents/{declared['id']}/updates/",
        {"status": "identified", "language": "en", "body": "Quiet.", "deliver_notifications": False},
        format="json",
    )
    told = writer.post(
        f"/api/v1/incidents/{declared['id']}/updates/",
        {"status": "monitoring", "language": "en", "body": "Told."},
        format="json",
    )

    assert quiet.json()["deliver_notifications"] is False and told.json()["deliver_notifications"] is True
    assert Delivery.objects.count() == before + 1


def test_asking_a_record_to_notify_is_overruled(writer, mail_component, everyone):
    record = enter_record_through_api(
        writer, mail_component, start=timezone.now() - dt.timedelta(days=3), minutes=30
    )

    response = writer.post(
        f"/api/v1/incidents/{record['id']}/updates/",
        {
            "status": "identified",
            "language": "en",
            "body": "Late note.",
            "deliver_notifications": True,
            "display_at": (timezone.now() - dt.timedelta(days=3, minutes=-10)).isoformat(),
        },
        format="json",
    )

    assert response.status_code == 201, response.content
    assert response.json()["deliver_notifications"] is False
    assert Delivery.objects.count() == 0


def test_a_record_stays_a_record(writer, mail_component):
    record = enter_record_through_api(
        writer, mail_component, start=timezone.now() - dt.timedelta(days=3), minutes=30
    )
    rows = database_rows()

    refused = writer.patch(f"/api/v1/incidents/{record['id']}/", {"backfilled": False}, format="json")
    assert_api_refused(refused, "backfilled")
    assert database_rows() == rows

    kept = writer.patch(
        f"/api/v1/incidents/{record['id']}/", {"backfilled": True, "impact": "minor"}, format="json"
    )
    assert kept.status_code == 200 and kept.json()["backfilled"] is True
    assert Incident.objects.get(public_id=record["id"]).backfilled
    assert Incident.objects.count() == len(rows["incidents.Incident"])


@pytest.mark.parametrize("value", ["maybe", [], {"a": 1}, None])
def test_a_backfilled_flag_that_is_not_a_boolean_is_refused(writer, mail_component, value):
    rows = database_rows()

    response = writer.post(
        "/api/v1/incidents/",
        {"title": "Mail", "language": "en", "body": "Slow.", "backfilled": value},
        format="json",
    )

    assert_api_refused(response, "backfilled")
    assert database_rows() == rows


def test_statuspage_json_and_schema_show_backfilled(writer, mail_component, client):
    enter_record_through_api(writer, mail_component, start=timezone.now() - dt.timedelta(days=3), minutes=30)

    incidents = client.get("/api/v2/incidents.json").json()["incidents"]
    schema = SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]

    assert [i["backfilled"] for i in incidents if i["name"] == "Mail delayed"] == [True]
    assert "backfilled" in schema["Incident"]["properties"]
    assert "backfilled" in schema["IncidentCreateRequest"]["properties"]
    assert "deliver_notifications" in schema["UpdateCreateRequest"]["properties"]


def test_the_public_page_says_it_is_a_record(writer, mail_component, client):
    record = enter_record_through_api(
        writer, mail_component, start=timezone.now() - dt.timedelta(days=3), minutes=30
    )
    slug = Incident.objects.get(public_id=record["id"]).slug

    english = client.get(f"/incidents/{slug}/").content.decode()

    assert "Entered as a record on" in english
