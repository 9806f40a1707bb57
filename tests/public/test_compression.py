"""Pages reach a browser compressed when no proxy in front compresses them, and still answer 304."""

import gzip

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.site_once]

BROWSER = {"accept-encoding": "gzip, deflate, br, zstd"}


@pytest.fixture
def cached(settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300


@pytest.mark.parametrize("path", ["/", "/ru/history/", "/history.atom"])
def test_a_browser_that_accepts_gzip_gets_the_page_compressed(client, site, cached, path):
    plain = client.get(path)
    compressed = client.get(path, headers=BROWSER)

    assert compressed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in compressed["Vary"]
    assert gzip.decompress(compressed.content) == plain.content
    assert len(compressed.content) < len(plain.content) / 3


def test_revalidating_the_compressed_page_answers_304(client, site, cached):
    first = client.get("/", headers=BROWSER)

    again = client.get("/", headers={**BROWSER, "if-none-match": first["ETag"]})

    assert again.status_code == 304
    assert again.content == b""


def test_a_kept_page_is_compressed_once_when_rendered_not_on_every_request(client, site, cached, monkeypatch):
    from incidents.public import page_cache

    compressions = []
    compress = page_cache.compress_string
    monkeypatch.setattr(
        page_cache, "compress_string", lambda *a, **k: compressions.append(1) or compress(*a, **k)
    )

    answers = [client.get("/", headers=BROWSER) for _ in range(3)]

    assert len(compressions) == 1
    assert answers[0].content == answers[1].content == answers[2].content
    assert answers[0]["ETag"] == answers[2]["ETag"]


def test_a_client_that_asks_for_no_encoding_gets_plain_text(client, site, cached):
    page = client.get("/")

    assert not page.has_header("Content-Encoding")
    assert b'<html lang="en">' in page.content
