"""Rendered pages are cached per language and dropped on every change a reader could see."""

import pytest
from django.utils import timezone

from incidents.lifecycle.commands import EditIncident, PostUpdate, WritePostmortem
from incidents.lifecycle.edits import edit_incident
from incidents.lifecycle.postmortems import save_action_item, write_postmortem
from incidents.lifecycle.updates import post_update
from incidents.models import ActionItem
from incidents.services.components import set_component_status
from incidents.services.metrics import record_sample

pytestmark = pytest.mark.django_db


@pytest.fixture
def cached(settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300


def test_a_cached_page_costs_no_query(client, site, cached, django_assert_num_queries):
    client.get("/")
    with django_assert_num_queries(0):
        assert client.get("/").status_code == 200


def test_cache_is_per_language(client, site, cached):
    assert '<html lang="en">' in client.get("/").content.decode()
    assert '<html lang="ru">' in client.get("/ru/").content.decode()
    assert '<html lang="nb">' in client.get("/", headers={"accept-language": "nb"}).content.decode()
    assert '<html lang="en">' in client.get("/").content.decode()


def test_a_posted_update_shows_on_the_next_request(
    client, site, admin, cached, django_capture_on_commit_callbacks
):
    slug = site["current"].slug
    client.get(f"/incidents/{slug}/")
    client.get("/ru/")
    with django_capture_on_commit_callbacks(execute=True):
        post_update(
            site["current"],
            PostUpdate(status="identified", body={"en": "Cause found: a bad deploy."}, language="en"),
            actor=admin,
        )
    assert "Cause found: a bad deploy." in client.get(f"/incidents/{slug}/").content.decode()
    assert "Cause found: a bad deploy." in client.get("/ru/").content.decode()


def test_nothing_changes_before_the_transaction_commits(
    client, site, admin, cached, django_capture_on_commit_callbacks
):
    client.get("/")
    with django_capture_on_commit_callbacks(execute=False):
        post_update(
            site["current"],
            PostUpdate(status="identified", body={"en": "Not yet committed."}, language="en"),
            actor=admin,
        )
    # The page was rendered before; until the commit hook runs the cache is not bumped.
    assert "Not yet committed." not in client.get("/").content.decode()


@pytest.mark.parametrize(
    "change",
    ["component_status", "title", "postmortem", "action_item", "sample"],
)
def test_every_visible_change_drops_the_cache(
    client, site, admin, cached, django_capture_on_commit_callbacks, change
):
    past = site["past"]
    pages = {
        "component_status": ("/", "Degraded performance"),
        "title": (f"/incidents/{site['current'].slug}/", "API errors (renamed)"),
        "postmortem": (f"/incidents/{past.slug}/", "Rewritten summary."),
        "action_item": (f"/incidents/{past.slug}/", "Rotate the keys"),
        "sample": ("/components/webhook-delivery/", "42.5\u00a0s"),
    }
    path, expected = pages[change]
    assert expected not in client.get(path).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        if change == "component_status":
            set_component_status(site["email"], status="degraded_performance", actor=admin)
        elif change == "title":
            edit_incident(
                site["current"],
                EditIncident(expected_version=site["current"].version, title={"en": "API errors (renamed)"}),
                actor=admin,
            )
        elif change == "postmortem":
            write_postmortem(
                past, WritePostmortem(language="en", sections={"summary": "Rewritten summary."}), actor=admin
            )
        elif change == "action_item":
            save_action_item(
                ActionItem(postmortem=past.postmortem, title={"en": "Rotate the keys"}), actor=admin
            )
        else:
            record_sample(site["delay"], value=42.5, at=timezone.now())
    assert expected in client.get(path).content.decode()


def test_unknown_query_parameters_share_the_cached_page(client, site, cached, django_assert_num_queries):
    client.get("/history/?utm_source=mail")
    with django_assert_num_queries(0):
        client.get("/history/?utm_source=other&x=1")


def test_history_pages_are_cached_apart(client, site, cached, settings):
    settings.PUBLIC_HISTORY_PAGE_SIZE = 1  # the past and the current incident
    assert "Page 1 of 2" in client.get("/history/").content.decode()
    assert "Page 2 of 2" in client.get("/history/?page=2").content.decode()
    assert "Webhooks delayed" in client.get("/history/?component=webhook-delivery").content.decode()
    assert "Сбой API" not in client.get("/history/?component=webhook-delivery").content.decode()
