"""Mail bombing through variants of one address: `+tags`, quoted local parts, case, and the dots
Gmail ignores reach one inbox, so they count as one address against its limit and find one
subscription. Mail still goes to the address as it was written."""

import pytest
from django.core import mail
from django.test import Client

from incidents.models import Subscriber

pytestmark = pytest.mark.django_db


@pytest.fixture
def subscribe(django_capture_on_commit_callbacks):
    """Subscribes `address` through the public JSON endpoint from one client; the status code."""

    def subscribe_(address: str) -> int:
        with django_capture_on_commit_callbacks(execute=True):
            response = Client(REMOTE_ADDR="203.0.113.7").post(
                "/subscribe/api/", {"email": address, "language": "en"}, content_type="application/json"
            )
        return response.status_code

    return subscribe_


@pytest.mark.parametrize(
    "variants",
    [
        ["a+1@example.com", '"a"@example.com', "A@EXAMPLE.COM", "a+2@Example.com", "a@example.com"],
        ["a.b@gmail.com", "ab@gmail.com", "A.B+x@gmail.com", "a.b@googlemail.com"],
    ],
    ids=["tags, quotes and case", "gmail dots"],
)
def test_variants_of_one_address_count_as_one_against_its_limit(subscribe, settings, variants):
    settings.SUBSCRIBE_RATE_PER_ADDRESS = 3

    answers = [subscribe(address) for address in variants]

    assert answers[:3] == [202, 202, 202]
    assert set(answers[3:]) == {429}
    # One subscription, mailed at the address it was first given as.
    assert [message.to for message in mail.outbox] == [[variants[0]]] * 3


def test_variants_of_a_subscribed_address_find_its_subscription_and_mail_it_as_written(subscribe):
    assert subscribe("a.b+news@gmail.com") == 202
    assert subscribe('"A.B"@googlemail.com') == 202

    [subscriber] = Subscriber.objects.all()
    assert subscriber.email == "a.b+news@gmail.com"
    assert [message.to for message in mail.outbox] == [["a.b+news@gmail.com"]] * 2
