"""The frame of every public page: the header with Subscribe, meta description and Open Graph
tags, the icon in the status colour, and the 404 and 500 pages in the site's language."""

import re

import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from incidents.models import Component, ComponentStatus
from incidents.views.errors import server_error

pytestmark = pytest.mark.django_db

PREFIXES = ("", "/ru", "/es", "/nb")
LOCALES = {"": "en_US", "/ru": "ru_RU", "/es": "es_ES", "/nb": "nb_NO"}


def pages(site) -> list[str]:
    return [
        "/",
        "/history/",
        "/uptime/",
        "/maintenance/",
        f"/incidents/{site['current'].slug}/",
        "/components/public-api/",
        "/subscribe/",
    ]


def header_of(html: str) -> str:
    return html[html.index('<header class="site-header">') : html.index("</header>")]


def meta(html: str, name: str) -> str:
    found = re.search(rf'<meta (?:name|property)="{re.escape(name)}" content="([^"]*)"', html)
    return found.group(1) if found else ""


@pytest.mark.parametrize("prefix", PREFIXES)
def test_every_public_page_has_subscribe_in_its_header_in_its_language(client, site, prefix):
    for path in pages(site):
        response = client.get(prefix + path)
        assert response.status_code == 200, prefix + path
        header = header_of(response.content.decode())
        assert f'<a class="subscribe-link" href="{prefix}/subscribe/"' in header, prefix + path
        for page in ("history/", "uptime/", "maintenance/"):
            assert f'href="{prefix}/{page}"' in header, prefix + path


@pytest.mark.parametrize("prefix", PREFIXES)
def test_every_public_page_describes_itself_for_search_and_link_previews(client, site, settings, prefix):
    for path in pages(site):
        html = client.get(prefix + path).content.decode()
        url = settings.SITE_URL + prefix + path
        assert len(meta(html, "description")) > 30, prefix + path
        assert meta(html, "og:description") == meta(html, "description")
        assert meta(html, "og:title") and meta(html, "og:site_name") == settings.STATUS_PAGE_NAME
        assert meta(html, "og:url") == url, prefix + path
        assert f'<link rel="canonical" href="{url}">' in html
        assert meta(html, "og:locale") == LOCALES[prefix]
        assert meta(html, "og:type") in ("website", "article")


def test_an_incident_previews_with_its_own_title_and_status(client, site):
    html = client.get(f"/incidents/{site['current'].slug}/").content.decode()
    assert meta(html, "og:title") == "Сбой API"  # written in Russian only: the title as the page shows it
    assert meta(html, "og:type") == "article"
    assert meta(html, "description").startswith(site["current"].get_status_display())


def banner(html: str) -> str:
    return re.search(r'<p class="banner[^"]*">\s*<span[^>]*></span>\s*([^<]+?)\s*</p>', html).group(1)


def test_the_overview_previews_with_the_pages_status_in_its_language(client, site):
    english, norwegian = (client.get(prefix + "/").content.decode() for prefix in ("", "/nb"))

    assert banner(english) == "Major system outage"
    assert meta(english, "description").startswith("Major system outage. ")
    assert banner(norwegian) != banner(english)
    assert meta(norwegian, "description").startswith(banner(norwegian) + ". Åpne hendelser")
    assert meta(norwegian, "og:description") == meta(norwegian, "description")


def test_the_current_page_is_marked_in_the_header(client, site):
    header = header_of(client.get("/history/").content.decode())
    assert '<a href="/history/" aria-current="page">' in header
    assert header.count('aria-current="page"') == 1


def test_the_theme_toggle_stays_hidden_until_its_script_runs(client, site):
    header = header_of(client.get("/").content.decode())
    assert re.search(r"<button [^>]*data-theme-toggle hidden", header)
    assert 'data-label-dark="Theme: dark"' in header


def test_the_icon_shows_the_current_status_and_each_page_links_it(client, site):
    Component.objects.filter(slug="public-api").update(status=ComponentStatus.MAJOR_OUTAGE)
    icon = client.get("/favicon.svg")
    assert icon.status_code == 200
    assert icon["Content-Type"] == "image/svg+xml"
    assert "#cf222e" in icon.content.decode()  # red: a major outage
    assert "max-age=60" in icon["Cache-Control"]
    assert "#bf8700" in client.get("/favicon.svg?status=minor").content.decode()
    assert "#cf222e" in client.get("/favicon.svg?status=bogus").content.decode()  # ignored: the current one
    overview = client.get("/").content.decode()
    assert '<link rel="icon" type="image/svg+xml" href="/favicon.svg?status=critical">' in overview
    assert (
        '<link rel="icon" type="image/svg+xml" href="/favicon.svg">'
        in client.get("/history/").content.decode()
    )


def test_favicon_ico_answers_with_the_icon(client, db):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == "/favicon.svg"


def test_an_unknown_page_answers_404_in_the_site_style_and_language(client, site):
    response = client.get("/ru/no-such-page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert '<html lang="ru">' in html
    assert '<a class="subscribe-link" href="/ru/subscribe/"' in html
    assert 'rel="canonical"' not in html  # an error page is nobody's canonical address


def test_json_404_under_the_api_stays_json(client, db):
    response = client.get("/api/no-such-thing/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"


def test_the_500_page_renders_in_the_site_language_without_the_database(db):
    request = RequestFactory().get("/ru/history/")
    with translation.override("ru"), CaptureQueriesContext(connection) as queries:
        response = server_error(request)
    html = response.content.decode()
    assert response.status_code == 500
    assert len(queries) == 0
    assert '<html lang="ru">' in html
    assert '<a class="subscribe-link" href="/ru/subscribe/"' in html
    assert '<link rel="stylesheet" href="/static/css/site.css">' in html
    assert "500" in html


def test_a_500_under_the_api_is_json(db):
    response = server_error(RequestFactory().get("/api/v1/incidents/"))
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"


def test_a_500_whose_frame_breaks_too_still_answers_500(db, settings):
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    settings.STATIC_ROOT = "/nonexistent-static-root"  # no manifest: {% static %} raises
    response = server_error(RequestFactory().get("/history/"))
    assert response.status_code == 500
    assert "Server error (500)" in response.content.decode()
