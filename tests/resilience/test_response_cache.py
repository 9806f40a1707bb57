"""Finished public responses kept per web process, checked against the content version."""

import pytest
from django.test import RequestFactory

from incidents.public import versions
from statuspage.response_cache import SHAREABLE_VERSION, ResponseCache


class FakeDjango:
    """Stands in for Django: counts calls and answers what a test sets."""

    def __init__(self):
        self.calls = 0
        self.version = 1
        self.status = "200 OK"
        self.headers = [("Content-Type", "text/html"), ("Vary", "Accept-Language"), ("ETag", '"v1"')]
        self.shareable = True

    def __call__(self, environ, start_response):
        self.calls += 1
        if self.shareable:
            environ[SHAREABLE_VERSION] = self.version
        start_response(self.status, list(self.headers))
        language = environ.get("HTTP_ACCEPT_LANGUAGE", "en")
        return [f"page {self.calls} in {language} at {self.version}".encode()]


@pytest.fixture
def django_app():
    return FakeDjango()


@pytest.fixture
def app(django_app):
    return ResponseCache(django_app, current_version=lambda: django_app.version, max_age=lambda: 60)


def get(app, path="/", method="GET", **headers):
    environ = RequestFactory().generic(method, path, headers=headers).environ
    answer = {}

    def start_response(status, response_headers, exc_info=None):
        answer["status"], answer["headers"] = status, dict(response_headers)

    answer["body"] = b"".join(app(environ, start_response)).decode()
    return answer


def test_a_repeat_is_answered_from_memory_while_the_version_holds(app, django_app):
    first = get(app)
    again = get(app)
    assert django_app.calls == 1
    assert again == first


def test_a_new_version_goes_through_django_again(app, django_app):
    get(app)
    django_app.version = 2  # a publish
    assert get(app)["body"] == "page 2 in en at 2"
    assert django_app.calls == 2


def test_an_entry_past_its_lifetime_goes_through_django_even_if_the_version_holds(django_app):
    """A write that forgot to bump the version is stale no longer than the page cache keeps pages."""
    app = ResponseCache(django_app, current_version=lambda: django_app.version, max_age=lambda: -1)
    get(app)
    get(app)
    assert django_app.calls == 2


def test_readers_of_another_language_get_their_own_copy(app, django_app):
    get(app, accept_language="en")
    assert get(app, accept_language="ru")["body"] == "page 2 in ru at 1"
    assert get(app, accept_language="en")["body"] == "page 1 in en at 1"
    assert django_app.calls == 2


def test_a_matching_etag_gets_304_from_memory(app, django_app):
    get(app)
    answer = get(app, if_none_match='"v1"')
    assert answer["status"].startswith("304") and answer["body"] == ""
    assert django_app.calls == 1


@pytest.mark.parametrize(
    "change",
    [
        lambda d: setattr(d, "shareable", False),
        lambda d: setattr(d, "status", "404 Not Found"),
        lambda d: d.headers.append(("Set-Cookie", "csrftoken=abc")),
    ],
    ids=["not marked by Django", "not a 200", "sets a cookie"],
)
def test_only_shareable_200_responses_without_cookies_are_kept(app, django_app, change):
    change(django_app)
    get(app)
    get(app)
    assert django_app.calls == 2


def test_while_degraded_every_request_reaches_django(django_app):
    degraded = [False]
    app = ResponseCache(
        django_app, current_version=lambda: django_app.version, max_age=lambda: 60, bypass=lambda: degraded[0]
    )
    get(app)
    degraded[0] = True  # the database is down: Django answers from the snapshot
    get(app)
    assert django_app.calls == 2


def test_other_methods_always_reach_django(app, django_app):
    get(app, method="POST")
    get(app, method="POST")
    assert django_app.calls == 2


def test_with_the_cache_server_down_every_request_reaches_django(django_app):
    app = ResponseCache(django_app, current_version=lambda: None, max_age=lambda: 60)
    get(app)
    get(app)
    assert django_app.calls == 2


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/history.atom", "/api/v2/summary.json"])
def test_public_pages_feeds_and_v2_documents_are_marked_shareable(client, settings, path):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 60
    response = client.get(path)
    assert response.wsgi_request.META[SHAREABLE_VERSION] == versions.page_version(live=True)


@pytest.mark.django_db
def test_with_the_page_cache_off_nothing_is_marked(client, settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0
    assert SHAREABLE_VERSION not in client.get("/").wsgi_request.META


@pytest.mark.django_db
def test_the_editor_is_never_marked(client, responder):
    client.force_login(responder)
    assert SHAREABLE_VERSION not in client.get("/editor/").wsgi_request.META


@pytest.mark.django_db
def test_the_deployed_application_answers_a_repeat_of_the_overview_from_memory(settings, monkeypatch):
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    import statuspage.wsgi

    settings.PUBLIC_PAGE_CACHE_SECONDS = 60
    # Django closes the database connection around each request; the test's transaction needs it.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        calls = []
        inner = statuspage.wsgi.application.application
        monkeypatch.setattr(
            statuspage.wsgi.application, "application", lambda e, s: calls.append(1) or inner(e, s)
        )
        first = get(statuspage.wsgi.application, "/", accept_language="en")
        again = get(statuspage.wsgi.application, "/", accept_language="en")
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    assert first["status"].startswith("200") and "Current status" in first["body"]
    assert again == first
    assert len(calls) == 1
