"""Fixtures of the access-control tests."""

import pytest

from tests.api.conftest import _empty_cache, _page_rows, api, client_as, page, probes, subscriber, token_for  # noqa: F401

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # Personas are created with passwords, and login tests check many: the default hasher is slow.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
