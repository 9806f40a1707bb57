"""Surge caching: CDN headers, and one render per expiry however many readers arrive at once
(single flight with stale-while-revalidate, incidents.public.page_cache)."""

import threading
import time

import pytest
from django.http import Http404, HttpResponse
from django.test import RequestFactory

from incidents.api import statuspage_views
from incidents.public import page_cache, statuspage_v2, versions

pytestmark = pytest.mark.django_db


@pytest.fixture
def cached(settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300


def test_public_pages_carry_an_etag_and_cdn_cache_control(client, site, cached):
    response = client.get("/")
    assert response["ETag"]
    assert response["Cache-Control"] == "public, no-cache"  # browsers revalidate: a publish shows at once
    control = response["CDN-Cache-Control"]
    assert "max-age=15" in control and "stale-while-revalidate=60" in control
    assert client.get("/", headers={"if-none-match": response["ETag"]}).status_code == 304


def test_v2_json_carries_stale_while_revalidate(client, site):
    response = client.get("/api/v2/summary.json")
    assert response["ETag"]
    assert "stale-while-revalidate=" in response["Cache-Control"]


def _concurrently(count: int, call) -> list:
    results = [None] * count
    start = threading.Barrier(count)

    def run(index):
        start.wait()
        results[index] = call()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_an_expired_page_under_a_surge_is_rendered_once(cached):
    renders = []

    def slow_page(request):
        renders.append(1)
        time.sleep(0.3)
        return HttpResponse(f"render {len(renders)}")

    page = page_cache.cached_page(slow_page)
    request = RequestFactory().get("/surge-test/")
    assert page(request).content == b"render 1"
    versions._bump_content()  # a publish: the cached copy is now out of date

    responses = _concurrently(30, lambda: page(RequestFactory().get("/surge-test/")))

    assert len(renders) == 2  # the first render and exactly one for 30 concurrent readers
    assert all(r.status_code == 200 for r in responses)
    bodies = {r.content for r in responses}
    assert bodies <= {b"render 1", b"render 2"}  # the others got the previous version
    assert page(request).content == b"render 2"


def test_a_cold_page_under_a_surge_is_rendered_once(cached):
    renders = []

    def slow_page(request):
        renders.append(1)
        time.sleep(0.2)
        return HttpResponse("fresh")

    page = page_cache.cached_page(slow_page)
    responses = _concurrently(20, lambda: page(RequestFactory().get("/cold-surge/")))
    assert len(renders) == 1
    assert {r.content for r in responses} == {b"fresh"}


def test_an_expired_v2_document_under_a_surge_is_built_once(monkeypatch):
    builds = []

    def slow_summary(page):
        builds.append(1)
        time.sleep(0.3)
        return {"page": {"updated_at": "2026-03-10T12:00:00.000Z"}, "build": len(builds)}

    monkeypatch.setitem(statuspage_v2.DOCUMENTS, "summary", slow_summary)
    monkeypatch.setattr(statuspage_v2.Page, "load", classmethod(lambda cls, language: None))
    statuspage_views.representation("summary", "en")
    versions._bump_content()
    results = _concurrently(30, lambda: statuspage_views.representation("summary", "en"))
    assert len(builds) == 2
    assert {r["body"] for r in results} <= {
        b'{"page":{"updated_at":"2026-03-10T12:00:00.000Z"},"build":1}',
        b'{"page":{"updated_at":"2026-03-10T12:00:00.000Z"},"build":2}',
    }


def test_a_page_that_raises_does_not_keep_the_next_reader_waiting(cached):
    def missing_page(request):
        raise Http404

    page = page_cache.cached_page(missing_page)
    with pytest.raises(Http404):
        page(RequestFactory().get("/no-such-page/"))
    started = time.monotonic()
    with pytest.raises(Http404):
        page(RequestFactory().get("/no-such-page/"))
    assert time.monotonic() - started < 1  # no wait for a lock the first reader left behind
