"""Which changes throw away which cached pages: edits readers see drop every page, live figures
only the pages showing them, and changes no reader sees drop nothing."""

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from incidents.lifecycle.commands import PostUpdate
from incidents.lifecycle.updates import post_update
from incidents.public import page_cache, versions
from incidents.roles import Role
from incidents.services.api_tokens import issue_token
from incidents.services.metrics import record_sample
from incidents.services.subscriber_admin import add_subscriber, change_subscriber
from incidents.services.users import set_role

pytestmark = pytest.mark.django_db

CONTENT_PAGES = ("/history/", "/history.atom", "/history.rss", "/maintenance/", "/uptime/")


@pytest.fixture
def cached(settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300
    settings.PUBLIC_METRICS_REFRESH_SECONDS = 10


def _both_versions() -> tuple[int, int]:
    return versions.content_version(), versions.live_version()


def _renders(paths) -> int:
    return sum(page_cache.renders[path] for path in paths)


def test_issuing_an_api_token_changes_no_version(site, admin, cached, django_capture_on_commit_callbacks):
    before = _both_versions()
    with django_capture_on_commit_callbacks(execute=True):
        issue_token(admin, name="deploys", scope="read_write", actor=admin)
    assert _both_versions() == before


def test_changing_a_role_changes_no_version(site, admin, viewer, cached, django_capture_on_commit_callbacks):
    before = _both_versions()
    with django_capture_on_commit_callbacks(execute=True):
        set_role(viewer, role=Role.RESPONDER, actor=admin)
    assert _both_versions() == before


def test_adding_and_changing_a_subscriber_changes_no_version(
    site, admin, cached, django_capture_on_commit_callbacks
):
    before = _both_versions()
    with django_capture_on_commit_callbacks(execute=True):
        subscriber = add_subscriber(email="reader@example.com", language="en", actor=admin, confirmed=True)
        change_subscriber(subscriber, language="ru", actor=admin)
    assert _both_versions() == before


def test_a_published_update_changes_the_content_version_and_the_history_renders_again(
    client, site, admin, cached, django_capture_on_commit_callbacks
):
    page_before = client.get("/history/").content.decode()
    version_before = versions.content_version()
    renders_before = page_cache.renders["/history/"]
    with django_capture_on_commit_callbacks(execute=True):
        post_update(
            site["current"],
            PostUpdate(status="resolved", body={"en": "Fixed: a full disk."}, language="en"),
            actor=admin,
        )
    assert versions.content_version() > version_before
    page_after = client.get("/history/").content.decode()
    assert page_cache.renders["/history/"] == renders_before + 1
    assert page_after != page_before


def test_a_sample_changes_only_the_live_version(
    client, site, admin, cached, django_capture_on_commit_callbacks
):
    for path in ("/", "/components/webhook-delivery/", *CONTENT_PAGES):
        assert client.get(path).status_code == 200
    content_before = versions.content_version()
    live_before = versions.live_version()
    renders_before = _renders(CONTENT_PAGES)
    with django_capture_on_commit_callbacks(execute=True):
        record_sample(site["delay"], value=42.5, at=timezone.now())
    assert versions.content_version() == content_before
    assert versions.live_version() > live_before
    for path in CONTENT_PAGES:
        assert client.get(path).status_code == 200
    assert _renders(CONTENT_PAGES) == renders_before
    assert "42.5\u00a0s" in client.get("/components/webhook-delivery/").content.decode()
    assert "42.5\u00a0s" in client.get("/").content.decode()


def test_samples_within_the_refresh_interval_show_on_the_first_request_after_it(
    client, site, cached, settings, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        record_sample(site["delay"], value=42.5, at=timezone.now())
    assert "42.5\u00a0s" in client.get("/components/webhook-delivery/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        record_sample(site["delay"], value=77.5, at=timezone.now())
    # Within the interval the page stays as it was rendered.
    assert "77.5\u00a0s" not in client.get("/components/webhook-delivery/").content.decode()
    later = timezone.now() + dt.timedelta(seconds=settings.PUBLIC_METRICS_REFRESH_SECONDS + 1)
    with time_machine.travel(later, tick=False):
        assert "77.5\u00a0s" in client.get("/components/webhook-delivery/").content.decode()
