"""Degraded mode: with the database really unreachable, the snapshot answers and writes get 503."""

import json

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_public_pages_answer_from_the_snapshot_with_a_header_and_a_note(client, exported, database_down):
    response = client.get("/")
    assert response.status_code == 200
    assert response["X-Status-Snapshot"] == exported.generated_at.isoformat()
    page = response.content.decode()
    assert "The live status page is temporarily unavailable" in page
    assert "Public API" in page


def test_language_prefix_and_reader_language_pick_the_snapshot_language(client, exported, database_down):
    assert '<html lang="ru">' in client.get("/ru/uptime/").content.decode()
    assert '<html lang="nb">' in client.get("/history/", headers={"accept-language": "nb"}).content.decode()


def test_a_filtered_page_from_the_snapshot_says_its_filter_was_not_applied(client, exported, database_down):
    filtered = client.get("/history/?component=public-api&impact=major").content.decode()
    by_month = client.get("/ru/uptime/?month=2026-01").content.decode()
    plain = client.get("/history/?page=1").content.decode()
    assert "Filters cannot be applied to the saved copy: it shows everything, unfiltered." in filtered
    assert "Filters cannot be applied" not in plain
    assert "Filters cannot be applied" in client.get("/history/?month=2026-13").content.decode()
    assert "Filters cannot be applied" not in by_month  # its sentence is in Russian
    assert "К сохранённой копии нельзя применить фильтры" in by_month


def test_json_and_feeds_answer_from_the_snapshot(client, exported, database_down):
    summary = client.get("/api/v2/summary.json")
    assert summary.status_code == 200
    assert summary["Content-Type"].startswith("application/json")
    assert json.loads(summary.content)["components"]
    atom = client.get("/history.atom")
    assert atom["Content-Type"].startswith("application/atom+xml")


def test_an_unknown_page_is_the_snapshot_404(client, exported, database_down):
    response = client.get("/incidents/no-such-incident/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()


def test_api_writes_answer_503_with_a_json_message(client, exported, database_down):
    response = client.post(
        "/api/v1/incidents/",
        {"title": "x"},
        content_type="application/json",
        headers={"authorization": "Bearer sp_some-token"},
    )
    assert response.status_code == 503
    assert response.json()["code"] == "database_unavailable"
    assert response["Retry-After"] == "30"


def test_the_editor_answers_503_with_a_message(client, exported, database_down):
    response = client.post("/editor/login/", {"username": "ada", "password": "correct horse battery"})
    assert response.status_code == 503
    assert "cannot reach its database" in response.content.decode()
    assert client.get("/editor/").status_code == 503


def test_without_a_snapshot_public_pages_answer_503_not_500(client, site, snapshot_dir, database_down):
    assert client.get("/").status_code == 503


def test_pages_are_live_again_once_the_database_returns(client, exported, database_down):
    from django.db import connection

    if connection.vendor == "sqlite" and not connection.is_in_memory_db():
        # The probe tests move SQLite to a file, where reconnecting ends the test's transaction.
        # Covered on PostgreSQL in CI and end to end by `make drill` (database-stopped).
        pytest.skip("needs an in-memory SQLite or PostgreSQL test database")
    assert client.get("/")["X-Status-Snapshot"]
    database_down()  # the database is back
    response = client.get("/")
    assert response.status_code == 200
    assert not response.has_header("X-Status-Snapshot")
    assert "temporarily unavailable" not in response.content.decode()
