"""Writing through the API: validation errors, body limits, stale writes, and parity with the services."""

import datetime as dt
import json
import re

import pytest
import time_machine
from django.core.cache import cache
from django.db import transaction

from incidents.lifecycle.commands import DeclareIncident, PostUpdate, WritePostmortem
from incidents.lifecycle.opening import declare_incident
from incidents.lifecycle.postmortems import write_postmortem
from incidents.lifecycle.updates import post_update
from incidents.models import AuditEvent, Component, ComponentGroup, Incident, IncidentUpdate

# One test here compares the traces of two runs on a database without the page.
pytestmark = pytest.mark.page_per_test


@pytest.fixture
def writer(client_as):
    return client_as("write_token")


def test_field_errors_come_back_per_field(page, writer):
    response = writer.post(
        "/api/v1/incidents/", {"title": "", "language": "xx", "impact": "huge"}, format="json"
    )

    assert response.status_code == 400
    body = response.json()
    # The body is optional: an incident may be declared without a first update.
    assert set(body) >= {"title", "language", "impact"}
    assert all(isinstance(messages, list) and messages for messages in body.values())


def test_domain_rules_are_reported_as_field_errors(page, writer):
    response = writer.post(
        "/api/v1/incidents/",
        {"title": "Failover", "language": "en", "body": "Planned.", "kind": "maintenance"},
        format="json",
    )

    assert response.status_code == 400
    assert "scheduled_for" in response.json()


@pytest.mark.parametrize(
    "raw",
    [
        b"{",
        b"[]",
        b'"text"',
        b"null",
        b'{"title": NaN}',
        b'{"title": "\\u0000", "language": "en", "body": "x"}',
        b'{"title": {"en": 1}, "language": ["en"], "body": 3}',
        b"\xff\xfe",
        b'{"title": "t", "language": "en", "body": "b", "components": [{"component": "\\u0000", "status": "operational"}]}',
        b'{"title": "t", "language": "en", "body": "b", "components": [{"component": "'
        + b"x" * 300
        + b'"}]}',
    ],
)
def test_malformed_bodies_are_a_400_never_a_500(page, writer, raw):
    response = writer.generic("POST", "/api/v1/incidents/", raw, content_type="application/json")

    assert response.status_code == 400
    assert isinstance(response.json(), dict)


@pytest.mark.parametrize(
    "path", ["/api/v1/incidents/%00/", "/api/v1/metrics/abc/", "/api/v1/tokens/null,null/"]
)
def test_malformed_ids_in_paths_are_a_404(page, writer, path):
    assert writer.get(path).status_code == 404
    assert writer.patch(path, {}, format="json").status_code in (404, 405)  # tokens cannot be edited
    assert writer.delete(path).status_code in (404, 405)


def test_translations_with_unknown_languages_or_nul_bytes_are_refused(page, writer):
    url = f"/api/v1/components/{page['rest'].public_id}/"

    unknown = writer.patch(url, {"name": {"xx": "Nope"}}, format="json")
    nul = writer.patch(url, {"name": {"en": "A\u0000B"}}, format="json")

    assert (unknown.status_code, nul.status_code) == (400, 400)
    assert Component.objects.get(pk=page["rest"].pk).name == {"en": "REST API"}


def test_a_5_mb_body_is_refused_with_413(page, writer):
    body = json.dumps({"title": "x" * (5 * 1024 * 1024), "language": "en", "body": "y"})

    response = writer.generic("POST", "/api/v1/incidents/", body, content_type="application/json")

    assert response.status_code == 413
    assert Incident.objects.filter(title__en__startswith="xxx").count() == 0


def test_a_stale_if_match_is_refused_with_412(page, writer, admin):
    url = f"/api/v1/incidents/{page['incident'].public_id}/"
    read = writer.get(url)
    post_update(
        page["incident"],
        PostUpdate(status="monitoring", body={"en": "Meanwhile."}, language="en"),
        actor=admin,
    )

    stale = writer.patch(url, {"impact": "critical"}, format="json", HTTP_IF_MATCH=read["ETag"])
    fresh = writer.patch(url, {"impact": "critical"}, format="json", HTTP_IF_MATCH=writer.get(url)["ETag"])

    assert stale.status_code == 412
    assert fresh.status_code == 200 and fresh.json()["impact"] == "critical"


def test_a_stale_version_is_refused_with_409_and_nothing_changes(page, writer, admin):
    url = f"/api/v1/incidents/{page['incident'].public_id}/"
    version = writer.get(url).json()["version"]
    post_update(
        page["incident"],
        PostUpdate(status="monitoring", body={"en": "Meanwhile."}, language="en"),
        actor=admin,
    )

    response = writer.patch(url, {"title": {"en": "Renamed"}, "version": version}, format="json")

    assert response.status_code == 409
    assert Incident.objects.get(pk=page["incident"].pk).title["en"] == "Delayed webhook deliveries"


def test_a_stale_if_match_on_a_component_is_refused(page, writer):
    url = f"/api/v1/components/{page['rest'].public_id}/"
    etag = writer.get(url)["ETag"]
    assert writer.patch(url, {"position": 7}, format="json", HTTP_IF_MATCH=etag).status_code == 200

    response = writer.patch(url, {"position": 9}, format="json", HTTP_IF_MATCH=etag)

    assert response.status_code == 412
    assert Component.objects.get(pk=page["rest"].pk).position == 7


def test_lists_filter_by_status_component_and_dates(page, writer):
    def titles(query):
        response = writer.get(f"/api/v1/incidents/?{query}")
        assert response.status_code == 200, response.content
        return [row["title"]["en"] for row in response.json()["results"]]

    assert titles("status=resolved") == ["Slow API"]
    assert titles("component=webhooks") == ["Delayed webhook deliveries"]
    yesterday = (dt.datetime.now(dt.UTC) - dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert "Slow API" not in titles(f"started_after={yesterday}&kind=incident")
    assert titles("ordering=started_at&kind=incident&published=true") == [
        "Slow API",
        "Delayed webhook deliveries",
    ]
    assert writer.get("/api/v1/incidents/?status=exploded").status_code == 400
    assert writer.get("/api/v1/incidents/?started_after=yesterday").status_code == 400


# --- parity: the API and the services leave the same traces ---


def run_with_services(components, actor):
    incident = declare_incident(
        DeclareIncident(
            title="Delayed webhook deliveries",
            language="en",
            body="We are investigating.",
            component_statuses={components["webhooks"]: "degraded_performance"},
        ),
        actor=actor,
    )
    post_update(
        incident,
        PostUpdate(status="identified", body={"en": "Consumer lagging."}, language="en"),
        actor=actor,
    )
    post_update(
        incident,
        PostUpdate(
            status="monitoring",
            body={"en": "Fix deployed."},
            language="en",
            component_statuses={components["webhooks"]: "operational"},
        ),
        actor=actor,
    )


def run_with_api(client, components):
    created = client.post(
        "/api/v1/incidents/",
        {
            "title": "Delayed webhook deliveries",
            "language": "en",
            "body": "We are investigating.",
            "components": [{"component": components["webhooks"].public_id, "status": "degraded_performance"}],
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    updates = f"/api/v1/incidents/{created.json()['id']}/updates/"
    first = {"status": "identified", "language": "en", "body": "Consumer lagging."}
    assert client.post(updates, first, format="json").status_code == 201
    second = {
        "status": "monitoring",
        "language": "en",
        "body": "Fix deployed.",
        "components": [{"component": components["webhooks"].public_id, "status": "operational"}],
    }
    assert client.post(updates, second, format="json").status_code == 201


TIME = re.compile(
    r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[.\d]*(Z|[+-]\d\d:\d\d)?"  # ISO 8601
    r"|\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}"  # RFC 822, in RSS
)
SLUG_DATE = re.compile(r"\d{4}-\d\d-\d\d-")


def public_ids():
    """A pattern matching every public id in the database (random, so they differ per run)."""
    ids = set()
    for model in (Incident, IncidentUpdate, Component, ComponentGroup):
        ids.update(model.objects.values_list("public_id", flat=True))
    return re.compile("|".join(sorted(ids)) or "(?!)")


def traces(client) -> dict:
    """What readers and auditors see, with ids and times masked."""
    cache.clear()
    ids = public_ids()
    public = {
        endpoint: TIME.sub("<t>", ids.sub("<id>", client.get(f"/api/v2/{endpoint}.json").content.decode()))
        for endpoint in ("summary", "incidents", "components")
    }
    # The overview page and the feeds: what a reader would see.
    pages = {}
    for path in ("/", "/history.atom", "/history.rss"):
        response = client.get(path)
        if response.status_code == 200:
            pages[path] = SLUG_DATE.sub("", TIME.sub("<t>", ids.sub("<id>", response.content.decode())))
    events = [
        (e.action, e.subject_type, e.actor_label, sorted(e.before), sorted(e.after))
        for e in AuditEvent.objects.exclude(action__startswith="api_token").order_by("id")
    ]
    return {"json": public, "pages": pages, "events": events}


def test_an_incident_written_through_the_api_leaves_the_same_traces_as_the_services(
    group, make_component, admin, client_as
):
    components = {"webhooks": make_component("webhooks", group=group, name={"en": "Webhook delivery"})}
    client = client_as("write_token")  # the admin's token
    AuditEvent.objects.all().delete()

    # Frozen, so both runs show the same minutes on the page whatever the clock does meanwhile.
    with time_machine.travel(dt.datetime.now(dt.UTC), tick=False):
        savepoint = transaction.savepoint_create()
        run_with_services(components, admin)
        by_services = traces(client)
        transaction.savepoint_rollback(savepoint)
        components["webhooks"].refresh_from_db()

        run_with_api(client, components)
        by_api = traces(client)

    assert by_services["events"] and by_services["json"]["summary"].count("Fix deployed.") == 1
    assert by_api == by_services


@pytest.mark.parametrize(
    "resource", ["audit-events", "samples", "metrics", "component-groups", "postmortems"]
)
def test_every_listed_object_can_be_read_alone_with_an_etag(page, admin, client_as, resource):
    write_postmortem(
        page["resolved"], WritePostmortem(language="en", sections={"summary": "Why."}), actor=admin
    )
    client = client_as("read_token")
    listed = client.get(f"/api/v1/{resource}/").json()["results"]

    detail = client.get(f"/api/v1/{resource}/{listed[0]['id']}/")

    assert detail.status_code == 200
    assert detail.json() == listed[0]
    assert detail["ETag"]
