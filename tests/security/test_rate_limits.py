"""Rate limits count on the atomic counters: a small, evicting page cache does not reset them."""

import pytest
from django.test import Client

from incidents.models import Subscriber


@pytest.mark.django_db
def test_the_twenty_first_subscription_from_one_client_is_refused_whatever_the_cache_holds(settings):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "tiny-evicting-cache",
            "OPTIONS": {"MAX_ENTRIES": 3, "CULL_FREQUENCY": 1},
        }
    }
    client = Client()
    answers = []
    for n in range(39):
        client.get("/history/")  # public pages fill the cache between requests
        client.get(f"/?page={n}")
        response = client.post("/subscribe/", {"email": f"reader{n}@example.com", "language": "en"})
        answers.append(response.status_code)

    assert answers[:20] == [200] * 20
    assert answers[20:] == [429] * 19
    assert Subscriber.objects.count() == 20


@pytest.mark.django_db
def test_clients_behind_the_trusted_proxy_are_limited_one_by_one(settings):
    settings.TRUSTED_PROXY_HEADER = "X-Forwarded-For"
    settings.SUBSCRIBE_RATE_PER_CLIENT = 2
    busy, other = Client(HTTP_X_FORWARDED_FOR="203.0.113.5"), Client(HTTP_X_FORWARDED_FOR="198.51.100.7")
    for n in range(3):
        busy.post("/subscribe/", {"email": f"busy{n}@example.com", "language": "en"})

    assert busy.post("/subscribe/", {"email": "busy9@example.com", "language": "en"}).status_code == 429
    assert other.post("/subscribe/", {"email": "other@example.com", "language": "en"}).status_code == 200
