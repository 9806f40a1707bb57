"""Degraded mode keeps what other sites embed: with the database really unreachable, the widget,
badges and calendars answer from the snapshot, robots.txt and widget.js as always, and /metrics
says the database is down, in Prometheus's text format."""

import pytest
from prometheus_client.parser import text_string_to_metric_families

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_widget_answers_from_the_snapshot_in_its_language_and_theme_and_may_be_framed(
    client, exported, database_down
):
    response = client.get("/widget/?lang=ru&theme=dark")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert response["X-Status-Snapshot"] == exported.generated_at.isoformat()
    page = response.content.decode()
    assert '<html lang="ru" data-theme="dark">' in page
    assert "Сбой API" in page  # the open incident
    assert "frame-ancestors *" in response["Content-Security-Policy"]
    assert "X-Frame-Options" not in response


def test_widget_script_and_robots_answer_as_always(client, exported, database_down):
    assert client.get("/")["X-Status-Snapshot"]  # the process knows the database is down
    script = client.get("/widget.js")
    robots = client.get("/robots.txt")
    assert (script.status_code, robots.status_code) == (200, 200)
    assert script["Content-Type"].startswith("text/javascript")
    assert robots["Content-Type"].startswith("text/plain")
    assert "Disallow: /editor/" in robots.content.decode()


def test_page_and_component_badges_answer_from_the_snapshot_in_any_theme(client, exported, database_down):
    page = client.get("/badge.svg?theme=dark&style=large")
    component = client.get("/components/public-api/badge.svg?lang=ru")
    assert (page.status_code, component.status_code) == (200, 200)
    assert page["Content-Type"].startswith("image/svg+xml")
    assert 'height="28"' in page.content.decode()  # the large style
    assert "Публичный API" in component.content.decode()
    assert "Major outage" not in component.content.decode()  # said in Russian
    unknown = client.get("/components/no-such-thing/badge.svg")
    assert unknown.status_code == 404
    assert "Unknown component" in unknown.content.decode()


def test_maintenance_calendars_answer_from_the_snapshot(client, exported, database_down):
    page = client.get("/maintenance.ics")
    component = client.get("/components/public-api/maintenance.ics?lang=nb")
    assert (page.status_code, component.status_code) == (200, 200)
    assert page["Content-Type"].startswith("text/calendar")
    assert "BEGIN:VCALENDAR" in page.content.decode()
    assert "Database upgrade" in page.content.decode()
    assert component["Content-Language"] == "nb"


def test_metrics_report_the_database_down_in_prometheus_text(client, exported, database_down):
    assert client.get("/")["X-Status-Snapshot"]  # the process knows the database is down
    response = client.get("/metrics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    families = {f.name: f for f in text_string_to_metric_families(response.content.decode())}
    assert families["statuspage_database_up"].samples[0].value == 0


def test_a_page_number_in_other_digits_is_the_first_history_page(client, exported, database_down):
    response = client.get("/history/?page=²")
    assert response.status_code == 200
    assert response["X-Status-Snapshot"]


def test_the_snapshot_holds_the_embeds_for_a_static_server(exported):
    files = exported.folder
    for relative in (
        "robots.txt",
        "widget.js",
        "widget/index.html",
        "ru/widget/dark.html",
        "badge.svg",
        "components/public-api/badge.svg",
        "maintenance.ics",
        "nb/components/public-api/maintenance.ics",
    ):
        assert (files / relative).is_file(), relative
