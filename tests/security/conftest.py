"""Fixtures of the access-control tests."""

from tests.api.conftest import _page_rows, api, client_as, page, probes, subscriber, token_for  # noqa: F401

PASSWORD = "correct horse battery"
