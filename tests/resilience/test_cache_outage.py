"""With the cache server (Redis) unreachable, pages still render and changes still save."""

import pytest
from django.core.cache import caches

from incidents.services.incidents import post_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_down(settings):
    settings.PUBLIC_PAGE_CACHE_SECONDS = 300
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:8899/0",  # nothing listens there
        }
    }
    yield
    caches["default"].close()


def test_public_pages_and_json_render_live_without_the_cache(client, site, redis_down):
    assert client.get("/").status_code == 200
    assert client.get("/api/v2/summary.json").status_code == 200


def test_an_update_saves_without_the_cache(site, admin, redis_down, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        update = post_update(
            site["current"], status="identified", body={"en": "Saved anyway."}, language="en", actor=admin
        )
    assert site["current"].updates.filter(pk=update.pk).exists()
