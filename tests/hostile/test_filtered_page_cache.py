"""History filters as a crawler or a cache buster sends them: every valid date range is a page of
its own, so filtered pages are kept for minutes, not a day, and only so many per page."""

import time

import pytest
from django.core.cache import caches

from incidents.public import page_cache

# The clock starts at NOW, a whole multiple of the five-minute period: the test's requests fall
# in one period, whose variants the cap counts.
from tests.public.conftest import _frozen_now, _site_rows, site  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept(settings):
    """The page cache on, in a local-memory cache large enough never to cull what we count."""
    settings.PUBLIC_PAGE_CACHE_SECONDS = 60
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "hostile-filtered-pages",
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    }
    caches["default"].clear()
    yield caches["default"]
    caches["default"].clear()


def longest_kept_seconds(cache) -> float:
    """How long the longest-lived kept page stays in the cache from now."""
    now = time.time()
    return max(
        expires - now
        for key, expires in cache._expire_info.items()
        if ":public:kept" in key  # the fresh and the latest copy of every page
    )


def date_ranges(count: int) -> list[str]:
    """`count` different valid filters inside the month the test site has history in, each
    holding its incident of 7 March."""
    ranges = [
        f"from=2026-03-{a:02}&to=2026-03-{b:02}{impact}"
        for impact in ("", "&impact=major")
        for a in range(1, 8)
        for b in range(7, 32)
    ]
    return ranges[:count]


def test_a_filtered_history_page_is_kept_for_minutes_not_a_day(client, site, kept):  # noqa: F811
    assert client.get("/history/?from=2026-03-01&to=2026-03-09&impact=major").status_code == 200
    assert longest_kept_seconds(kept) <= 300
    assert client.get("/history/").status_code == 200
    assert longest_kept_seconds(kept) > 3600  # the unfiltered page keeps its stale copy a day


def test_the_201st_filtered_variant_of_a_page_is_answered_but_not_kept(client, site, kept):  # noqa: F811
    ranges = date_ranges(201)
    assert len(set(ranges)) == 201
    for query in ranges:
        assert client.get(f"/history/?{query}").status_code == 200
    renders = page_cache.renders["/history/"]
    last = client.get(f"/history/?{ranges[-1]}")
    assert last.status_code == 200
    assert "Webhooks delayed" in last.content.decode()
    assert page_cache.renders["/history/"] == renders + 1  # rendered again: the 201st was not kept
    client.get(f"/history/?{ranges[0]}")
    assert page_cache.renders["/history/"] == renders + 1  # the first is still kept
