"""Importing a Statuspage export (`manage.py import_statuspage`): incidents arrive as records of
the past, exactly as written, and a re-run creates nothing."""

import datetime as dt
import json

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from incidents.lifecycle.commands import DeclareIncident, PostUpdate, ResolveIncident
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.updates import post_update, resolve_incident
from incidents.models import (
    AuditEvent,
    Component,
    ComponentChange,
    Delivery,
    Incident,
    IncidentUpdate,
    Postmortem,
    StatusPeriod,
    UptimeMonth,
)
from incidents.services.subscriptions import confirm_subscription, subscribe

pytestmark = pytest.mark.django_db

PAGE = {"id": "k3v9x2m7q1zt", "name": "Acme", "url": "https://status.acme.example", "time_zone": "Etc/UTC"}


def component_row(code: str, name: str, status: str = "operational") -> dict:
    return {"id": code, "name": name, "status": status, "group_id": None, "group": False, "position": 1}


def update_row(code, incident, status, body, at, affected=None) -> dict:
    return {
        "id": code,
        "status": status,
        "body": body,
        "incident_id": incident,
        "created_at": at,
        "updated_at": at,
        "display_at": at,
        "affected_components": affected,
        "deliver_notifications": True,
        "custom_tweet": None,
        "tweet_id": None,
    }


ENGLISH_EXPORT = {
    "page": PAGE,
    "incidents": [
        {
            "id": "r4t8y2u6i0o3",
            "name": "Delayed webhook deliveries",
            "status": "postmortem",
            "impact": "minor",
            "created_at": "2025-03-04T09:58:31.774Z",
            "updated_at": "2025-03-06T12:00:00.000Z",
            "started_at": "2025-03-04T09:55:00.000Z",
            "monitoring_at": "2025-03-04T10:40:00.000Z",
            "resolved_at": "2025-03-04T11:02:15.000Z",
            "shortlink": "https://stspg.io/r4t8y2u6",
            "page_id": PAGE["id"],
            "backfilled": False,
            "postmortem_body": "A queue consumer stalled on a poisoned message; p95 delay peaked at 23 min.",
            "postmortem_published_at": "2025-03-06T12:00:00.000Z",
            "incident_updates": [
                update_row(
                    "y7u1i5o9p3a6",
                    "r4t8y2u6i0o3",
                    "resolved",
                    "Deliveries are back to normal.",
                    "2025-03-04T11:02:15.000Z",
                    [
                        {
                            "code": "b7m3n1q8w4e6",
                            "name": "Core - Webhook delivery",
                            "old_status": "degraded_performance",
                            "new_status": "operational",
                        }
                    ],
                ),
                update_row(
                    "c2v6b0n4m8x1",
                    "r4t8y2u6i0o3",
                    "monitoring",
                    "A fix is out; the backlog is draining.",
                    "2025-03-04T10:40:00.000Z",
                ),
                update_row(
                    "z9x5c1v7b3n0",
                    "r4t8y2u6i0o3",
                    "investigating",
                    "Webhook deliveries are delayed. We are investigating.",
                    "2025-03-04T09:58:31.774Z",
                    [
                        {
                            "code": "b7m3n1q8w4e6",
                            "name": "Core - Webhook delivery",
                            "old_status": "operational",
                            "new_status": "degraded_performance",
                        }
                    ],
                ),
            ],
            "components": [component_row("b7m3n1q8w4e6", "Webhook delivery", "operational")],
        },
        {
            "id": "h5j9k3l7z1x4",
            "name": "Dashboard sign-in failures",
            "status": "resolved",
            "impact": "major",
            "created_at": "2024-11-18T22:41:00.000Z",
            "updated_at": "2024-11-19T00:07:00.000Z",
            "started_at": "2024-11-18T22:35:00.000Z",
            "monitoring_at": None,
            "resolved_at": "2024-11-19T00:07:00.000Z",
            "page_id": PAGE["id"],
            "incident_updates": [
                update_row(
                    "d4f8g2h6j0k3",
                    "h5j9k3l7z1x4",
                    "resolved",
                    "Sign-in works again.",
                    "2024-11-19T00:07:00.000Z",
                ),
                update_row(
                    "q3w7e1r5t9y2",
                    "h5j9k3l7z1x4",
                    "identified",
                    "An expired certificate on the identity provider.",
                    "2024-11-18T22:41:00.000Z",
                    [
                        {
                            "code": "n2m6b0v4c8x1",
                            "name": "Dashboard",
                            "old_status": "operational",
                            "new_status": "major_outage",
                        }
                    ],
                ),
            ],
            "components": [component_row("n2m6b0v4c8x1", "Dashboard", "operational")],
        },
    ],
}

RUSSIAN_EXPORT = {
    "page": PAGE,
    "incidents": [
        {
            "id": "w8e2r6t0y4u7",
            "name": "Задержка отправки писем",
            "status": "resolved",
            "impact": "minor",
            "created_at": "2023-02-10T07:12:00.000+03:00",
            "updated_at": "2023-02-10T08:30:00.000+03:00",
            "started_at": "2023-02-10T07:00:00.000+03:00",
            "resolved_at": "2023-02-10T08:30:00.000+03:00",
            "backfilled": True,
            "incident_updates": [
                update_row(
                    "a1s5d9f3g7h2",
                    "w8e2r6t0y4u7",
                    "resolved",
                    "Очередь разобрана, письма доставлены.",
                    "2023-02-10T08:30:00.000+03:00",
                ),
                update_row(
                    "j6k0l4z8x2c5",
                    "w8e2r6t0y4u7",
                    "investigating",
                    "Письма уходят с задержкой до 40\u00a0минут — выясняем причину.",
                    "2023-02-10T07:12:00.000+03:00",
                    [
                        {
                            "code": "m3n7b1v5c9x4",
                            "name": "Почта",
                            "old_status": "operational",
                            "new_status": "partial_outage",
                        }
                    ],
                ),
            ],
            "components": [],
        }
    ],
}


@pytest.fixture
def webhook_component(db):
    """The one component the page already has; "Dashboard" and "Почта" are not there yet."""
    return Component.objects.create(slug="webhooks", name={"en": "Webhook delivery"}, status="operational")


@pytest.fixture
def subscriber(webhook_component):
    created = subscribe(
        email="all@example.com", language="en", components=[webhook_component], send_mail=False
    )
    return confirm_subscription(created.subscriber)


def write(tmp_path, name: str, document) -> str:
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document, ensure_ascii=False))
    return str(path)


def import_file(path: str, *args) -> None:
    call_command("import_statuspage", path, *args, stdout=open("/dev/null", "w"))


def test_an_export_is_imported_as_records_with_its_times_statuses_and_updates(
    tmp_path, webhook_component, subscriber
):
    import_file(write(tmp_path, "en.json", ENGLISH_EXPORT))
    import_file(write(tmp_path, "ru.json", RUSSIAN_EXPORT), "--language", "ru")

    assert Incident.objects.count() == 3
    assert all(Incident.objects.values_list("backfilled", flat=True))
    assert not Delivery.objects.exists()
    webhook = Incident.objects.get(statuspage_id="r4t8y2u6i0o3")
    assert webhook.public_id == "r4t8y2u6i0o3"
    assert webhook.title == {"en": "Delayed webhook deliveries"}
    assert (webhook.status, webhook.impact) == ("resolved", "minor")
    assert webhook.started_at == dt.datetime(2025, 3, 4, 9, 55, tzinfo=dt.UTC)
    assert webhook.monitoring_at == dt.datetime(2025, 3, 4, 10, 40, tzinfo=dt.UTC)
    assert webhook.resolved_at == dt.datetime(2025, 3, 4, 11, 2, 15, tzinfo=dt.UTC)
    timeline = list(webhook.updates.timeline().values_list("status", "display_at", "deliver_notifications"))
    assert [status for status, _at, _notify in timeline] == ["resolved", "monitoring", "investigating"]
    assert timeline[-1][1] == dt.datetime(2025, 3, 4, 9, 58, 31, 774000, tzinfo=dt.UTC)
    assert not any(notify for _status, _at, notify in timeline)
    assert list(webhook.components.all()) == [webhook_component]
    postmortem = Postmortem.objects.get(incident=webhook)
    assert postmortem.is_published
    assert postmortem.published_at == dt.datetime(2025, 3, 6, 12, tzinfo=dt.UTC)
    assert "23 min" in postmortem.summary["en"]

    webhook_component.refresh_from_db()
    assert webhook_component.status == "operational"  # current status untouched by a record
    dashboard = Component.objects.get(name__en="Dashboard")
    assert dashboard.status == "operational"
    assert ComponentChange.objects.filter(component=dashboard, new_status="major_outage").exists()
    # ...but its record's impact is laid over its own days, and their months counted.
    assert StatusPeriod.objects.filter(
        component=dashboard, status="major_outage", ended_at__isnull=False
    ).exists()
    assert UptimeMonth.objects.filter(component=dashboard).exists()

    letters = Incident.objects.get(statuspage_id="w8e2r6t0y4u7")
    assert letters.original_language == "ru"
    assert letters.started_at == dt.datetime(2023, 2, 10, 4, 0, tzinfo=dt.UTC)
    body = letters.updates.get(status="investigating").body["ru"]
    assert body == "Письма уходят с задержкой до 40\u00a0минут — выясняем причину."
    assert Component.objects.get(name__ru="Почта").incidents.get() == letters
    assert AuditEvent.objects.filter(action="incident.imported_as_record").count() == 3


def test_a_second_run_creates_nothing(tmp_path, webhook_component):
    path = write(tmp_path, "en.json", ENGLISH_EXPORT)
    import_file(path)
    counts = (Incident.objects.count(), IncidentUpdate.objects.count(), Component.objects.count())

    import_file(path)

    assert (Incident.objects.count(), IncidentUpdate.objects.count(), Component.objects.count()) == counts
    assert counts == (2, 5, 2)


def test_our_own_incidents_json_round_trips_into_an_empty_instance(client, tmp_path, make_component):
    api = make_component("api", name={"en": "API"})
    start = timezone.now() - dt.timedelta(days=3)
    for n in range(3):
        incident = declare_incident(
            DeclareIncident(
                title=f"Errors on the API ({n})",
                language="en",
                body="We are looking into it.",
                component_statuses={api: "partial_outage"},
                started_at=start + dt.timedelta(hours=n),
            ),
            actor=None,
        )
        post_update(
            incident, PostUpdate(status="identified", body={"en": "A bad deploy."}, language="en"), actor=None
        )
        if n:
            resolve_incident(
                incident, ResolveIncident(body={"en": "Rolled back."}, language="en"), actor=None
            )
    exported = client.get("/api/v2/incidents.json").json()
    path = write(tmp_path, "ours.json", exported)
    Incident.objects.all().delete()
    Component.objects.all().delete()

    import_file(path)

    imported = client.get("/api/v2/incidents.json").json()
    assert len(imported["incidents"]) == 3

    def essentials(document):
        keep = ("id", "name", "status", "impact", "started_at", "monitoring_at", "resolved_at", "created_at")
        update_keys = ("id", "status", "body", "display_at", "created_at")
        return [
            (
                {key: incident[key] for key in keep},
                [{key: update[key] for key in update_keys} for update in incident["incident_updates"]],
                [component["name"] for component in incident["components"]],
            )
            for incident in document["incidents"]
        ]

    assert essentials(imported) == essentials(exported)


def test_a_url_to_the_metadata_address_is_refused_by_the_guard(db):
    with pytest.raises(CommandError, match="metadata"):
        import_file("http://169.254.169.254/api/v2/incidents.json")
    assert not Incident.objects.exists()


@pytest.mark.parametrize(
    ("document", "named"),
    [
        ("{not json", "not JSON"),
        ("[" * 100_000, "nested too deeply"),
        (
            {"incidents": [{"id": "x1", "status": "resolved", "created_at": "2024-01-01T00:00:00Z"}]},
            "x1.*name",
        ),
        (
            {"incidents": [{**ENGLISH_EXPORT["incidents"][1], "resolved_at": "2999-01-01T00:00:00Z"}]},
            "h5j9k3l7z1x4.*resolved_at",
        ),
        (
            {"incidents": [{**ENGLISH_EXPORT["incidents"][1], "started_at": "1969-12-31T23:00:00Z"}]},
            "h5j9k3l7z1x4.*started_at",
        ),
        ({"incidents": [{**ENGLISH_EXPORT["incidents"][1], "status": "exploded"}]}, "h5j9k3l7z1x4.*status"),
        (
            {
                "incidents": [
                    ENGLISH_EXPORT["incidents"][0],
                    {**ENGLISH_EXPORT["incidents"][1], "created_at": "soon"},
                ]
            },
            "h5j9k3l7z1x4.*created_at",
        ),
    ],
)
def test_malformed_input_is_refused_naming_the_incident_and_field_with_nothing_written(
    tmp_path, document, named
):
    with pytest.raises(CommandError, match=named):
        import_file(write(tmp_path, "bad.json", document))
    assert not Incident.objects.exists()
    assert not IncidentUpdate.objects.exists()
    assert not Component.objects.exists()
