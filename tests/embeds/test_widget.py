"""The embeddable widget: /widget/ (the one page other sites may frame) and /widget.js."""

from django.conf import settings

from incidents.lifecycle.commands import ResolveIncident
from incidents.lifecycle.updates import resolve_incident


def test_widget_may_be_framed_by_any_site_and_nothing_else_may(client, site):
    widget = client.get("/widget/")
    overview = client.get("/")
    badge = client.get("/badge.svg")

    assert widget.status_code == 200
    assert "X-Frame-Options" not in widget
    assert "frame-ancestors *" in widget["Content-Security-Policy"]
    for other in (overview, badge):
        assert other["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in other["Content-Security-Policy"]


def test_a_cached_widget_keeps_its_framing_policy(client, site, settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 60
    client.get("/widget/")

    again = client.get("/widget/")

    assert "X-Frame-Options" not in again
    assert "frame-ancestors *" in again["Content-Security-Policy"]


def test_widget_shows_the_indicator_and_links_open_incidents(client, site):
    page = client.get("/widget/").content.decode()

    assert "Major system outage" in page
    current = site["current"]
    assert f'href="{settings.SITE_URL}/incidents/{current.slug}/"' in page
    assert 'target="_blank"' in page
    # Past incidents and planned maintenance are not "open" here.
    assert site["past"].slug not in page
    assert site["upcoming"].slug not in page


def test_widget_language_and_theme_are_parameters(client, site):
    page = client.get("/widget/?lang=ru&theme=dark").content.decode()

    assert '<html lang="ru" data-theme="dark">' in page
    assert f'href="{settings.SITE_URL}/ru/incidents/{site["current"].slug}/"' in page
    assert "Сбой API" in page


def test_widget_ignores_unknown_parameters(client, site):
    response = client.get("/widget/?lang=xx&theme=%3Cscript%3E")

    assert response.status_code == 200
    page = response.content.decode()
    assert '<html lang="en">' in page
    assert "<script>" not in page


def test_widget_script_is_served_from_a_stable_address(client, db):
    response = client.get("/widget.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert b'"/widget/"' in response.content
    assert "max-age=3600" in response["Cache-Control"]


def test_widget_refreshes_itself_and_its_etag_moves_only_with_what_it_shows(client, site, admin):
    first = client.get("/widget/")
    page = first.content.decode()
    assert 'data-refresh-interval="60"' in page
    assert '<main id="widget-status" data-refresh>' in page
    assert client.get("/widget/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    resolve_incident(site["current"], ResolveIncident(body={"en": "Fixed."}, language="en"), actor=admin)

    after = client.get("/widget/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200
    assert site["current"].slug not in after.content.decode()
