"""The hostile-input suite: every field that takes an instant, number, URL, address, JSON or
Markdown, sent as an attacker would, through the API, the editor, push and webhook receivers and
the public query strings.

Each case asserts what a user would notice: a 4xx (or a form error) naming the field, no 500,
and nothing written: every row of the database as it was, so every public page shows what it
showed before the attack (test_bodies renders the pages every attack starts from). Where an
attack is accepted and stored as written, the public pages are rendered afterwards and must
still answer 200 in all four languages.
"""

import json

import pytest
from django.test import Client

from tests.api.conftest import (  # noqa: F401
    _page_rows,
    api,
    client_as,
    page,
    probes,
    token_for,
)
from tests.conftest import database_rows

LANGUAGE_PREFIXES = ("", "/ru", "/es", "/nb")
PUBLIC_PATHS = ("/", "/history/", "/uptime/", "/maintenance/", "/history.atom", "/history.rss")


@pytest.fixture(autouse=True)
def _no_page_cache(settings):
    # Every case reads the pages it may have broken, not a copy cached before the attack.
    settings.PUBLIC_PAGE_CACHE_SECONDS = 0


@pytest.fixture
def editor(admin):
    """The editor's pages, logged in as an admin."""
    client = Client()
    client.force_login(admin)
    return client


def assert_api_refused(response, field: str, *, status: int = 400) -> None:
    """A JSON error answer that names `field` (as a key of the body, or in its message)."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert field in body or field in json.dumps(body), body


def refused_without_trace(response, field: str, rows_before: dict, *, status: int = 400) -> None:
    """Refused naming `field`, and not one field of one row written."""
    assert_api_refused(response, field, status=status)
    assert database_rows() == rows_before


def assert_form_refused(response, field: str) -> None:
    """The form shown again with an error next to `field`."""
    assert response.status_code == 200, response.status_code
    content = response.content.decode()
    assert 'class="errorlist' in content, "no error shown"
    assert f'name="{field}"' in content, f"the form has no field {field}"


def assert_public_pages_render(client: Client | None = None, extra_paths: tuple[str, ...] = ()) -> None:
    """Every public page answers 200 in every language."""
    client = client or Client()
    for prefix in LANGUAGE_PREFIXES:
        for path in PUBLIC_PATHS + extra_paths:
            response = client.get(prefix + path)
            assert response.status_code == 200, (prefix + path, response.status_code)
