"""The platform as a newcomer or an outside checker meets it (`make run`, no configuration): the
pages production serves, no debug pages, and JSON errors under /api/ whatever DEBUG says."""

import json

import pytest
from django.test import Client

from tests.test_settings import run_manage

# Answers of a process started with no configuration at all, as `make run` starts the web server.
ANSWERS_OF_A_FRESH_RUN = """
import json
from django.test import Client
client = Client(raise_request_exception=False)
answers = {}
for path in ("/no-such-page/", "/api/v1/incidents/not.an.id/", "/static/css/site.css"):
    response = client.get(path)
    answers[path] = {
        "status": response.status_code,
        "type": response["Content-Type"],
        "body": b"".join(response).decode(errors="replace"),
    }
print(json.dumps(answers))
"""


@pytest.fixture(scope="module")
def fresh_run(tmp_path_factory) -> dict:
    var_dir = tmp_path_factory.mktemp("fresh-run")
    result = run_manage(
        "shell", "--no-imports", "-c", ANSWERS_OF_A_FRESH_RUN, STATUSPAGE_VAR_DIR=str(var_dir)
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.fixture
def debug_on(settings):
    """DEBUG=1, as a developer may ask for it (pytest-django otherwise runs with it off)."""
    settings.DEBUG = True


def assert_api_error(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json", response["Content-Type"]
    body = response.json()
    assert set(body) == {"detail"} and body["detail"], body
    return body


def test_a_missing_page_of_a_fresh_run_is_the_sites_own_404_without_the_url_list(fresh_run):
    missing = fresh_run["/no-such-page/"]

    assert missing["status"] == 404
    assert "Page not found · Acme Status" in missing["body"]
    assert "See the current status" in missing["body"]
    assert "URLconf" not in missing["body"] and "api/v1/" not in missing["body"]


def test_a_bad_id_under_the_api_of_a_fresh_run_answers_json(fresh_run):
    answer = fresh_run["/api/v1/incidents/not.an.id/"]

    assert answer["status"] == 404
    assert answer["type"] == "application/json"
    assert json.loads(answer["body"]) == {"detail": "Not found."}


def test_a_fresh_run_serves_its_static_files_itself(fresh_run):
    stylesheet = fresh_run["/static/css/site.css"]

    assert stylesheet["status"] == 200
    assert stylesheet["type"].startswith("text/css")


def test_a_url_the_api_does_not_have_answers_json_even_with_debug_on(client, debug_on):
    assert_api_error(client.get("/api/v1/incidents/not.an.id/"), 404)
    assert_api_error(client.get("/api/v2/no-such-document.json"), 404)


def test_a_method_the_statuspage_api_does_not_take_answers_json_405(client, db):
    body = assert_api_error(client.post("/api/v2/summary.json"), 405)
    assert "POST" in body["detail"]


def test_a_server_error_under_the_api_answers_json_even_with_debug_on(db, debug_on, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("the database went away mid-build")

    monkeypatch.setattr("incidents.api.statuspage_views.representation", broken)

    response = Client(raise_request_exception=False).get("/api/v2/summary.json")

    assert assert_api_error(response, 500) == {"detail": "Server error."}
    assert b"the database went away" not in response.content


def test_a_local_run_sets_no_secure_only_cookie_and_does_not_redirect_to_https(client, db):
    page = client.get("/")
    chosen = client.get("/language/ru/")

    assert page.status_code == 200
    assert chosen.status_code == 302 and not chosen["Location"].startswith("https:")
    assert chosen.cookies["django_language"]["secure"] == ""
