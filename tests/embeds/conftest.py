"""The public test page (tests/public/conftest.py) for the embeds: badges, widget, calendar."""

from tests.public.conftest import _frozen_now, _no_page_cache, _site_rows, site  # noqa: F401
