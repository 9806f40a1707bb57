"""Public query strings as a cache buster would send them: made-up page numbers, component names
and tracking tags never add cached copies, never answer 500, and the pages stay up."""

import pytest
from django.core.cache import caches
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import RequestFactory

from tests.hostile.conftest import assert_public_pages_render
from tests.public.conftest import _site_rows, site  # noqa: F401

pytestmark = pytest.mark.django_db

NOT_PAGE_NUMBERS = ["abc", "0", "-1", "1e3", "2.0", " 2", "+2", "\u0663", "9" * 40, "", "%00"]
NOT_COMPONENTS = ["nope", "<img src=x onerror=alert(1)>", "public-api'", "../../etc", "x" * 300, "%00"]


@pytest.fixture
def kept(settings):
    """The page cache on, in a local-memory cache large enough never to cull what we count."""
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300
    settings.PUBLIC_HISTORY_PAGE_SIZE = 1  # two pages: the past and the current incident
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "hostile-query-strings",
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    }
    caches["default"].clear()
    yield caches["default"]
    caches["default"].clear()


@pytest.fixture
def app():
    """The WSGI application as statuspage/wsgi.py builds it."""
    # As Django's test client does: closing connections would end the test's transaction.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield WSGIHandler()
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def get(app, url: str) -> int:
    environ = RequestFactory().get(url).environ
    answer = {}

    def start_response(status, headers, exc_info=None):
        answer["status"] = int(status.split()[0])

    body = app(environ, start_response)
    b"".join(body)
    if hasattr(body, "close"):
        body.close()
    return answer["status"]


def made_up_urls() -> list[str]:
    urls = [f"/history/?page={n}" for n in range(3, 60)]  # past the last page
    urls += [f"/history/?page={value}" for value in NOT_PAGE_NUMBERS]
    urls += [f"/?page={n}" for n in range(30)]
    urls += [f"/history/?component=made-up-{n}" for n in range(50)]
    urls += [f"/history/?component={value}" for value in NOT_COMPONENTS]
    urls += [f"/?component=made-up-{n}" for n in range(20)]
    urls += [f"/?utm_source=mail-{n}" for n in range(76)]
    urls += [f"/history/?utm_source=mail-{n}&x={n}" for n in range(30)]
    urls += [f"/components/public-api/?ref={n}" for n in range(20)]
    return urls


def test_300_made_up_query_values_add_no_more_than_a_handful_of_cached_pages(site, kept, app):  # noqa: F811
    for url in ("/", "/history/", "/history/?page=2", "/components/public-api/"):
        assert get(app, url) == 200
    cached_before = len(kept._cache)
    urls = made_up_urls()
    assert len(urls) >= 300

    statuses = {url: get(app, url) for url in urls}

    assert not [url for url, status in statuses.items() if status >= 500]
    assert set(statuses.values()) == {200}
    assert len(kept._cache) - cached_before <= 4
    assert_public_pages_render()


@pytest.mark.parametrize("value", [*NOT_PAGE_NUMBERS, "3", "999999", "1000000"])
def test_a_history_page_that_is_not_there_shows_the_first_and_keeps_no_copy(client, site, kept, value):  # noqa: F811
    client.get("/history/")
    client.get("/ru/history/")
    cached = len(kept._cache)
    for prefix in ("", "/ru"):
        response = client.get(f"{prefix}/history/", {"page": value})
        assert response.status_code == 200
        assert 'rel="next" href="?page=2"' in response.content.decode()  # the first of two pages
    assert len(kept._cache) == cached


def test_page_one_and_no_page_are_one_cached_page(client, site, kept):  # noqa: F811
    client.get("/history/")
    cached = len(kept._cache)
    assert client.get("/history/?page=1").status_code == 200
    assert len(kept._cache) == cached


@pytest.mark.parametrize("value", NOT_COMPONENTS)
def test_an_unknown_component_shows_every_component_and_is_not_kept(client, site, kept, value):  # noqa: F811
    client.get("/history/")
    cached = len(kept._cache)
    response = client.get("/history/", {"component": value})
    assert response.status_code == 200
    assert "There is no component by that name" in response.content.decode()
    assert "<img src=x" not in response.content.decode()
    assert len(kept._cache) == cached


def test_a_known_component_and_page_are_still_kept(client, site, kept, django_assert_num_queries):  # noqa: F811
    assert "Webhooks delayed" in client.get("/history/?component=webhook-delivery").content.decode()
    with django_assert_num_queries(0):
        assert "Webhooks delayed" in client.get("/history/?component=webhook-delivery").content.decode()


NOT_FILTERS = [
    "impact=catastrophic",
    "impact=%00",
    "month=2026-13",
    "month=1999-01",
    "month=2099-12",
    "month=march",
    "from=2026-02-30",
    "from=2026-03-09&to=2026-03-01",
    "to=<img src=x>",
]


@pytest.mark.parametrize("query", NOT_FILTERS)
def test_a_bad_history_filter_is_named_answers_200_and_is_not_kept(client, site, kept, query):  # noqa: F811
    client.get("/history/")
    cached = len(kept._cache)
    response = client.get(f"/history/?{query}")
    assert response.status_code == 200
    assert 'class="field-error' in response.content.decode()
    assert "<img src=x>" not in response.content.decode()
    assert len(kept._cache) == cached


@pytest.mark.parametrize("query", ["from=1900-01-01", "to=2099-01-01", "from=2000-01-01&to=2000-01-02"])
def test_dates_outside_the_history_are_answered_but_not_kept(client, site, kept, query):  # noqa: F811
    client.get("/history/")
    cached = len(kept._cache)
    assert client.get(f"/history/?{query}").status_code == 200
    assert len(kept._cache) == cached


def test_filters_in_any_order_are_one_cached_page(client, site, kept, django_assert_num_queries):  # noqa: F811
    client.get("/history/?impact=major&component=webhook-delivery&from=2026-03-01&to=2026-03-09")
    with django_assert_num_queries(0):
        page = client.get("/history/?to=2026-03-09&from=2026-03-01&component=webhook-delivery&impact=major")
    assert "Webhooks delayed" in page.content.decode()


@pytest.mark.parametrize("value", ["2026-13", "1999-01", "2099-12", "march", "%00", "2026-3"])
def test_an_uptime_month_without_data_is_said_and_not_kept(client, site, kept, value):  # noqa: F811
    client.get("/uptime/")
    cached = len(kept._cache)
    response = client.get("/uptime/", {"month": value})
    assert response.status_code == 200
    assert "There is no uptime for that month" in response.content.decode()
    assert len(kept._cache) == cached


def test_an_uptime_month_with_data_is_kept(client, site, kept, django_assert_num_queries):  # noqa: F811
    client.get("/uptime/?month=2026-02")
    with django_assert_num_queries(0):
        assert "February 2026" in client.get("/uptime/?month=2026-02&utm_source=x").content.decode()
