"""Fixtures of the access-control tests."""

import pytest

PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    # Personas are created with passwords, and login tests check many: the default hasher is slow.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
