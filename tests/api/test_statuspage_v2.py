"""The Statuspage-compatible public JSON: shapes as documented, content, language, caching."""

import datetime as dt
import json
import re
from pathlib import Path

import pytest
import time_machine
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from incidents.lifecycle.commands import PostUpdate, ScheduleMaintenance, WritePostmortem
from incidents.lifecycle.opening import schedule_maintenance
from incidents.lifecycle.postmortems import publish_postmortem, write_postmortem
from incidents.lifecycle.updates import post_update
from incidents.models import Component, Outcome
from incidents.services.components import set_component_status
from incidents.services.health import evaluate_metrics, group_samples
from incidents.services.metrics import NewSample, record_sample, record_samples

EXAMPLE = json.loads((Path(__file__).parent / "fixtures" / "statuspage_summary.json").read_text())
EXAMPLE_GROUP, EXAMPLE_COMPONENT = EXAMPLE["components"][0], EXAMPLE["components"][1]
EXAMPLE_INCIDENT = EXAMPLE["incidents"][0]
EXAMPLE_UPDATE = EXAMPLE_INCIDENT["incident_updates"][1]
EXAMPLE_AFFECTED = EXAMPLE_UPDATE["affected_components"][0]
EXAMPLE_MAINTENANCE = EXAMPLE["scheduled_maintenances"][0]

# Keys that the example shows as null but that hold a value when there is one, and their type.
NULLABLE = {
    "description": str,
    "start_date": str,
    "group_id": str,
    "monitoring_at": str,
    "resolved_at": str,
    "affected_components": list,
    "custom_tweet": str,
    "tweet_id": str,
}
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
TIME_KEYS = {"created_at", "updated_at", "started_at", "monitoring_at", "resolved_at", "display_at"}
TIME_KEYS |= {"scheduled_for", "scheduled_until"}
COMPONENT_STATUSES = {
    "operational",
    "degraded_performance",
    "partial_outage",
    "major_outage",
    "under_maintenance",
}
INCIDENT_STATUSES = {"investigating", "identified", "monitoring", "resolved", "postmortem"}
MAINTENANCE_STATUSES = {"scheduled", "in_progress", "verifying", "completed"}
INDICATORS = {"none", "minor", "major", "critical", "maintenance"}
ID = re.compile(r"^[0-9a-z]{12}$")

TOP_LEVEL = {
    "summary": {"page", "status", "components", "incidents", "scheduled_maintenances"},
    "status": {"page", "status"},
    "components": {"page", "components"},
    "incidents": {"page", "incidents"},
    "incidents/unresolved": {"page", "incidents"},
    "scheduled-maintenances": {"page", "scheduled_maintenances"},
    "scheduled-maintenances/upcoming": {"page", "scheduled_maintenances"},
    "scheduled-maintenances/active": {"page", "scheduled_maintenances"},
}


def get(client, endpoint, **headers):
    return client.get(f"/api/v2/{endpoint}.json", **headers)


def assert_like(ours: dict, example: dict, *, extra: set[str] = frozenset()) -> None:
    """Same keys as the documented example (plus our declared extras), values of the same type."""
    assert set(ours) - extra == set(example), set(ours) ^ set(example)
    for key, value in example.items():
        if ours[key] is None:
            assert value is None or key in NULLABLE, key
        elif value is None:
            assert isinstance(ours[key], NULLABLE[key]), key
        else:
            assert type(ours[key]) is type(value), key
        if key in TIME_KEYS and ours[key] is not None:
            assert TIME.match(ours[key]), (key, ours[key])
        if key in {"id", "page_id", "incident_id", "group_id", "code"} and ours[key] is not None:
            assert ID.match(ours[key]), (key, ours[key])


def assert_component(row: dict) -> None:
    assert row["status"] in COMPONENT_STATUSES
    if row["group"]:
        assert_like(row, EXAMPLE_GROUP)
    else:
        assert_like(row, EXAMPLE_COMPONENT, extra={"x_metrics"})


def assert_event(row: dict, *, maintenance: bool) -> None:
    example = EXAMPLE_MAINTENANCE if maintenance else EXAMPLE_INCIDENT
    # `backfilled` is the manage API's field, carried so an import of this JSON keeps records as records.
    assert_like(row, example, extra={"backfilled"})
    assert isinstance(row["backfilled"], bool)
    assert row["status"] in (MAINTENANCE_STATUSES if maintenance else INCIDENT_STATUSES)
    assert row["impact"] in (
        {"maintenance", "none", "minor"} if maintenance else {"none", "minor", "major", "critical"}
    )
    for update in row["incident_updates"]:
        assert_like(update, EXAMPLE_UPDATE)
        assert update["status"] in INCIDENT_STATUSES | MAINTENANCE_STATUSES
        assert update["incident_id"] == row["id"]
        for change in update["affected_components"] or []:
            assert_like(change, EXAMPLE_AFFECTED)
            assert {change["old_status"], change["new_status"]} <= COMPONENT_STATUSES
    for component in row["components"]:
        assert_like(component, EXAMPLE_COMPONENT)


@pytest.mark.parametrize("endpoint", TOP_LEVEL)
def test_every_endpoint_has_the_documented_shape(client, page, endpoint):
    response = get(client, endpoint)

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == TOP_LEVEL[endpoint]
    assert_like(body["page"], EXAMPLE["page"])
    if "status" in body:
        assert set(body["status"]) == {"indicator", "description"}
        assert body["status"]["indicator"] in INDICATORS
    for row in body.get("components", []):
        assert_component(row)
    for row in body.get("incidents", []):
        assert_event(row, maintenance=False)
    for row in body.get("scheduled_maintenances", []):
        assert_event(row, maintenance=True)


def test_summary_reads_like_the_documented_example(client, page):
    body = get(client, "summary").json()

    group, rest, webhooks = body["components"]
    assert (group["name"], group["group"], group["components"]) == (
        "Core",
        True,
        [rest["id"], webhooks["id"]],
    )
    assert group["status"] == "degraded_performance"
    assert (rest["group_id"], webhooks["group_id"]) == (group["id"], group["id"])
    assert [row["position"] for row in body["components"]] == [1, 2, 3]
    assert body["status"] == {"indicator": "minor", "description": "Partially Degraded Service"}
    [incident] = body["incidents"]
    assert incident["name"] == "Delayed webhook deliveries"
    assert incident["status"] == "identified"
    assert [u["status"] for u in incident["incident_updates"]] == ["identified", "investigating"]
    first = incident["incident_updates"][1]
    assert first["affected_components"] == [
        {
            "code": webhooks["id"],
            "name": "Core - Webhook delivery",
            "old_status": "operational",
            "new_status": "degraded_performance",
        }
    ]
    assert incident["incident_updates"][0]["affected_components"] is None
    assert [c["id"] for c in incident["components"]] == [webhooks["id"]]
    [maintenance] = body["scheduled_maintenances"]
    assert (maintenance["status"], maintenance["impact"]) == ("scheduled", "maintenance")
    assert maintenance["shortlink"].endswith(f"/incidents/{page['upcoming'].slug}/")


def test_drafts_never_appear(client, page):
    for endpoint in TOP_LEVEL:
        assert "Probe breach" not in get(client, endpoint).content.decode()


def test_incident_lists_hold_what_their_names_say(client, page, admin):
    running = schedule_maintenance(
        ScheduleMaintenance(
            title="Network upgrade",
            language="en",
            body="Started.",
            status="in_progress",
            scheduled_for=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5),
            scheduled_until=dt.datetime.now(dt.UTC) + dt.timedelta(hours=1),
        ),
        actor=admin,
    )

    def names(endpoint, key):
        return [row["name"] for row in get(client, endpoint).json()[key]]

    assert names("incidents", "incidents") == ["Delayed webhook deliveries", "Slow API"]
    assert names("incidents/unresolved", "incidents") == ["Delayed webhook deliveries"]
    assert set(names("scheduled-maintenances", "scheduled_maintenances")) == {
        "Database failover test",
        "Network upgrade",
    }
    assert names("scheduled-maintenances/upcoming", "scheduled_maintenances") == ["Database failover test"]
    assert names("scheduled-maintenances/active", "scheduled_maintenances") == [running.title["en"]]


def test_indicator_reports_maintenance_only_when_nothing_is_broken(client, page, admin):
    for component in Component.objects.all():
        set_component_status(component, status="operational", actor=admin)
    set_component_status(page["rest"], status="under_maintenance", actor=admin)
    assert get(client, "status").json()["status"] == {
        "indicator": "maintenance",
        "description": "Service Under Maintenance",
    }

    set_component_status(page["webhooks"], status="major_outage", actor=admin)
    cache.clear()  # on_commit invalidation does not run inside a test transaction
    assert get(client, "status").json()["status"] == {
        "indicator": "critical",
        "description": "Major System Outage",
    }


def test_resolved_incident_with_published_postmortem_reads_as_postmortem(client, page, admin):
    postmortem = write_postmortem(
        page["resolved"], WritePostmortem(language="en", sections={"summary": "Why."}), actor=admin
    )
    publish_postmortem(postmortem, actor=admin)

    statuses = {row["name"]: row["status"] for row in get(client, "incidents").json()["incidents"]}

    assert statuses["Slow API"] == "postmortem"


def test_components_carry_live_metrics_under_their_own_key(client, page):
    webhooks = get(client, "components").json()["components"][2]

    [metric] = webhooks["x_metrics"]
    assert metric["id"] == "delay"
    assert (metric["value"], metric["unit"], metric["status"]) == (400, "s", "degraded_performance")
    assert metric["no_data"] is False
    assert metric["p95"] == 30  # nearest rank of the last five samples: 10, 20, 30, 400
    assert isinstance(metric["age_seconds"], int) and metric["age_seconds"] >= 0
    assert TIME.match(metric["measured_at"])


def test_a_silent_metric_reads_as_no_data_with_no_status_as_on_the_page(client, page):
    later = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=3 * page["metric"].expected_interval + 5)
    with time_machine.travel(later):
        [metric] = get(client, "components").json()["components"][2]["x_metrics"]
        html = client.get("/").content.decode()

    assert (metric["no_data"], metric["status"]) == (True, None)
    assert metric["value"] == 400  # the last value measured, with its time: not a current one
    assert TIME.match(metric["measured_at"]) and metric["age_seconds"] >= 180
    assert "no data" in html


def test_metric_status_is_the_evaluated_one_as_on_the_page(client, page):
    entries = [NewSample(page["metric"], None, dt.datetime.now(dt.UTC), Outcome.TIMEOUT)]
    record_samples(entries)
    evaluate_metrics(group_samples(entries))

    [metric] = get(client, "components").json()["components"][2]["x_metrics"]

    # A failed run counts as beyond the worst threshold, here the only one (degraded).
    assert (metric["value"], metric["no_data"], metric["status"]) == (None, False, "degraded_performance")
    html = client.get("/").content.decode()
    assert "last check failed" in html
    assert '<span class="metric-verdict"><span class="badge status-degraded_performance">' in html


def test_metric_p95_looks_only_at_the_window(client, page):
    page["metric"].window = 1
    page["metric"].save()

    [metric] = get(client, "components").json()["components"][2]["x_metrics"]

    assert (metric["window"], metric["p95"]) == (1, 400)


def test_language_is_chosen_by_lang_then_accept_language_with_fallback(client, page):
    def names(response):
        return [row["name"] for row in response.json()["components"]]

    assert names(get(client, "components")) == ["Core", "REST API", "Webhook delivery"]
    russian = get(client, "components", QUERY_STRING="lang=ru")
    assert names(russian) == ["Ядро", "REST API", "Доставка вебхуков"]  # REST API has no Russian name
    assert russian["Content-Language"] == "ru"
    by_header = client.get("/api/v2/components.json", HTTP_ACCEPT_LANGUAGE="ru,en;q=0.5")
    assert names(by_header) == names(russian)
    body = client.get("/api/v2/incidents/unresolved.json?lang=ru").json()
    assert body["incidents"][0]["incident_updates"][0]["body"] == "Обработчик очереди отстаёт."


@pytest.mark.parametrize(
    "query",
    ["lang=xx", "lang=", "lang=%00", "lang=" + "a" * 5000, "page=-1&limit=abc", "lang=ru-RU", "lang[]=1"],
)
def test_odd_parameters_fall_back_instead_of_failing(client, page, query):
    response = client.get(f"/api/v2/summary.json?{query}")

    assert response.status_code == 200
    assert response.json()["components"][0]["name"] in {"Core", "Ядро"}


def test_cors_is_open_for_reading_and_writes_are_refused(client, page):
    response = get(client, "summary", HTTP_ORIGIN="https://dashboard.example")
    assert response["Access-Control-Allow-Origin"] == "*"
    preflight = client.options("/api/v2/summary.json", HTTP_ORIGIN="https://dashboard.example")
    assert preflight.status_code == 204
    assert "GET" in preflight["Access-Control-Allow-Methods"]
    assert client.post("/api/v2/summary.json", {}).status_code == 405


def test_conditional_get_answers_304(client, page):
    first = get(client, "summary")
    assert first["Cache-Control"].startswith("public, max-age=")

    by_etag = get(client, "summary", HTTP_IF_NONE_MATCH=first["ETag"])
    by_date = get(client, "summary", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])

    assert (by_etag.status_code, by_etag.content) == (304, b"")
    assert by_date.status_code == 304
    assert by_etag["ETag"] == first["ETag"]


def test_a_second_read_is_served_from_the_cache(client, page, django_assert_num_queries):
    get(client, "summary")
    with django_assert_num_queries(0):
        assert get(client, "summary").status_code == 200


@pytest.mark.parametrize("endpoint", sorted(set(TOP_LEVEL) - {"summary", "components"}))
def test_documents_without_metrics_never_read_samples(client, page, endpoint):
    with CaptureQueriesContext(connection) as queries:
        assert get(client, endpoint).status_code == 200

    assert not [query for query in queries if "incidents_sample" in query["sql"]]


def test_a_committed_change_invalidates_the_cached_documents(
    client, page, admin, django_capture_on_commit_callbacks
):
    before = get(client, "incidents/unresolved")

    with django_capture_on_commit_callbacks(execute=True):
        post_update(
            page["incident"],
            PostUpdate(status="monitoring", body={"en": "Fix deployed."}, language="en"),
            actor=admin,
        )
    after = get(client, "incidents/unresolved", HTTP_IF_NONE_MATCH=before["ETag"])

    assert after.status_code == 200
    assert after["ETag"] != before["ETag"]
    assert after.json()["incidents"][0]["status"] == "monitoring"


def test_a_write_through_the_rest_api_invalidates_the_public_json(
    client, page, client_as, django_capture_on_commit_callbacks
):
    before = get(client, "status").json()["status"]["indicator"]
    writer = client_as("write_token")

    with django_capture_on_commit_callbacks(execute=True):
        response = writer.post(
            f"/api/v1/components/{page['rest'].public_id}/status/", {"status": "major_outage"}, format="json"
        )

    assert response.status_code == 200
    assert (before, get(client, "status").json()["status"]["indicator"]) == ("minor", "critical")


def test_head_answers_like_get_without_a_body(client, page):
    response = client.head("/api/v2/summary.json")

    assert response.status_code == 200
    assert response.content == b""
    assert response["ETag"] == get(client, "summary")["ETag"]


def test_live_metric_values_refresh_at_most_every_few_seconds(
    client, page, settings, django_capture_on_commit_callbacks
):
    settings.STATUSPAGE_API_CACHE_SECONDS = 30
    settings.PUBLIC_METRICS_REFRESH_SECONDS = 10

    def live_value():
        return get(client, "components").json()["components"][2]["x_metrics"][0]["value"]

    def sample(value):
        with django_capture_on_commit_callbacks(execute=True):
            record_sample(page["metric"], value=value)

    with time_machine.travel(dt.datetime.now(dt.UTC), tick=False) as traveller:
        assert live_value() == 400
        sample(5)
        assert live_value() == 5  # the first sample after a quiet spell shows at once
        sample(7)
        assert live_value() == 5  # samples arrive too often to drop the cache for each
        traveller.shift(11)
        sample(9)
        assert live_value() == 9
