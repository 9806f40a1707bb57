"""Public subscribing under attack: every submission counts against its client before it is
read, so a stream of invalid ones runs out of the limit too; and confirmations sent to one
domain are limited whatever the addresses."""

import pytest
from django.core import mail
from django.test import Client

from incidents.models import Subscriber

pytestmark = pytest.mark.django_db

CLIENT = "203.0.113.7"


def post_form(data: dict):
    return Client(REMOTE_ADDR=CLIENT).post("/subscribe/", data)


def post_json(data: dict | str):
    return Client(REMOTE_ADDR=CLIENT).post("/subscribe/api/", data, content_type="application/json")


@pytest.mark.parametrize(
    ("send", "invalid"),
    [
        (post_form, [{"email": "not an address", "language": "en"}, {"email": "x@localhost"}, {}]),
        (
            post_json,
            ["{not json", {"email": "x@", "language": "en"}, {"email": "a@b.example", "channel": "pager"}],
        ),
    ],
    ids=["form", "json endpoint"],
)
def test_invalid_submissions_use_up_the_clients_limit(
    settings, django_capture_on_commit_callbacks, send, invalid
):
    settings.SUBSCRIBE_RATE_PER_CLIENT = 3
    assert [send(data).status_code for data in invalid] == [400, 400, 400]

    with django_capture_on_commit_callbacks(execute=True):
        response = send({"email": "reader@example.com", "language": "en"})

    assert response.status_code == 429
    assert not Subscriber.objects.exists()
    assert mail.outbox == []


def test_confirmations_to_one_domain_are_limited(settings, django_capture_on_commit_callbacks):
    settings.SUBSCRIBE_RATE_PER_DOMAIN = 3
    answers = []
    for n in range(4):
        with django_capture_on_commit_callbacks(execute=True):
            response = Client(REMOTE_ADDR=f"203.0.113.{n + 1}").post(
                "/subscribe/api/",
                {"email": f"person{n}@victim.example", "language": "en"},
                content_type="application/json",
            )
        answers.append(response.status_code)

    assert answers == [202, 202, 202, 429]
    assert len(mail.outbox) == 3
