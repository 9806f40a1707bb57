"""The embedded cache keeps what it is given and still makes room when it is full."""

import pytest

from statuspage import file_cache
from statuspage.file_cache import FileCache


@pytest.fixture
def cache(tmp_path):
    return FileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 4, "CULL_FREQUENCY": 2}})


def test_a_kept_value_reads_back_as_it_was_written(cache):
    page = {"gzipped": bytes(range(256)) * 100, "headers": {"ETag": '"abc"'}}

    cache.set("page", page, timeout=60)

    assert cache.get("page") == page


def test_a_full_cache_drops_entries_once_the_pause_between_culls_has_passed(cache, monkeypatch):
    monkeypatch.setattr(file_cache, "CULL_EVERY_SECONDS", 0.0)
    for number in range(12):
        cache.set(f"page-{number}", number, timeout=60)

    assert len(cache._list_cache_files()) <= 4


def test_culls_wait_for_the_pause_so_a_surge_of_writes_does_not_list_the_folder_each_time(cache):
    for number in range(12):
        cache.set(f"page-{number}", number, timeout=60)

    # One cull at the first write, when the cache was empty; the rest waited.
    assert len(cache._list_cache_files()) == 12
