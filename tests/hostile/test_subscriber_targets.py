"""Hostile subscribers of chat channels and phone numbers: whoever gives a target must prove
they can read it. A number is texted a code (and only when the public may add numbers at all),
a chat channel is posted the confirmation link; an e-mail address given with either confirms
nothing. Codes and confirmations are limited per target, per client and per hour."""

import json
import re

import pytest
import time_machine
from django.core import mail
from django.test import Client
from django.utils import timezone

from incidents.channels.links import confirmation_token
from incidents.models import Channel, Subscriber
from tests.conftest import database_rows
from tests.subscriptions.chat_sinks import *  # noqa: F403 - the receivers are fixtures

from .conftest import assert_api_refused

pytestmark = pytest.mark.django_db

NUMBER = "+4712345678"


@pytest.fixture
def post(django_capture_on_commit_callbacks):
    """POSTs as an anonymous client at `address`, running the after-commit sends as production does."""

    def post_(path: str, data: dict, *, address: str = "203.0.113.7", json_body: bool = True):
        client = Client(REMOTE_ADDR=address)
        with django_capture_on_commit_callbacks(execute=True):
            if json_body:
                return client.post(path, data, content_type="application/json")
            return client.post(path, data)

    return post_


@pytest.fixture
def public_sms(sms_gateway, settings):
    settings.PUBLIC_SMS_SUBSCRIPTIONS = True
    return sms_gateway


def subscribe_number(post, number: str = NUMBER, *, address: str = "203.0.113.7"):
    body = {"channel": "sms", "target": number, "email": "attacker@example.com", "language": "en"}
    return post("/subscribe/api/", body, address=address)


def texted(gateway) -> list[tuple[str, str]]:
    """(path, text) of each message the SMS gateway was asked to send."""
    return [(request["path"], json.loads(request["body"])["message"]) for request in gateway.requests]


def test_the_public_json_endpoint_refuses_a_number_unless_public_sms_is_switched_on(post, sms_gateway):
    before = database_rows()

    response = subscribe_number(post)

    assert_api_refused(response, "channel")
    assert database_rows() == before
    assert sms_gateway.requests == [] and mail.outbox == []


def test_the_public_sms_section_is_not_offered_unless_public_sms_is_switched_on(post, sms_gateway):
    before = database_rows()

    response = post("/subscribe/chat/sms/", {"target": NUMBER, "language": "en"}, json_body=False)

    assert response.status_code == 404
    assert 'id="sms"' not in Client().get("/subscribe/").content.decode()
    assert database_rows() == before
    assert sms_gateway.requests == [] and mail.outbox == []


def test_a_number_is_texted_a_code_and_only_that_code_confirms_it(post, public_sms):
    response = subscribe_number(post)

    assert response.status_code == 202, response.content
    subscriber = Subscriber.objects.get(channel=Channel.SMS)
    [(path, text)] = texted(public_sms)
    assert path == f"/sms/{NUMBER}"
    [code] = re.findall(r"\b\d{6}\b", text)
    assert mail.outbox == []
    code_url = response.json()["code_url"]
    wrong = "000000" if code != "000000" else "111111"

    assert post(code_url, {"code": wrong}, json_body=False).status_code == 400
    subscriber.refresh_from_db()
    assert not subscriber.is_active

    assert post(code_url, {"code": code}, json_body=False).status_code == 200
    subscriber.refresh_from_db()
    assert subscriber.is_active


def test_a_confirmation_link_never_confirms_a_number(post, public_sms):
    subscribe_number(post)
    subscriber = Subscriber.objects.get(channel=Channel.SMS)

    response = post(f"/subscribe/confirm/{confirmation_token(subscriber)}/", {}, json_body=False)

    assert response.status_code == 404
    assert mail.outbox == []
    subscriber.refresh_from_db()
    assert not subscriber.is_active


@pytest.mark.parametrize(
    ("setting", "numbers", "addresses"),
    [
        ("SMS_CODES_PER_NUMBER", [NUMBER] * 3, ["203.0.113.1", "203.0.113.2", "203.0.113.3"]),
        ("SMS_CODES_PER_CLIENT", ["+4712345671", "+4712345672", "+4712345673"], ["203.0.113.1"] * 3),
        (
            "SMS_CODES_PER_HOUR",
            ["+4712345671", "+4712345672", "+4712345673"],
            ["203.0.113.1", "203.0.113.2", "203.0.113.3"],
        ),
    ],
    ids=["per number", "per client", "per hour for the whole install"],
)
def test_codes_are_limited_and_the_limit_opens_after_an_hour(
    post, public_sms, settings, setting, numbers, addresses
):
    setattr(settings, setting, 2)
    # Counted in the database, whose windows follow the moved clock (Redis expires keys by its own).
    settings.REDIS_URL = ""
    with time_machine.travel(timezone.now(), tick=False) as clock:
        answers = [
            subscribe_number(post, number, address=address).status_code
            for number, address in zip(numbers, addresses, strict=True)
        ]

        assert answers == [202, 202, 429]
        assert len(public_sms.requests) == 2

        clock.shift(3601)
        assert subscribe_number(post, numbers[-1], address=addresses[-1]).status_code == 202
        assert len(public_sms.requests) == 3


def test_a_chat_channel_is_confirmed_by_the_link_posted_to_it_not_by_the_address_given(post, slack_sink):
    body = {"channel": "slack", "target": slack_sink.url, "email": "attacker@example.com", "language": "en"}

    assert post("/subscribe/api/", body).status_code == 202

    assert mail.outbox == []
    subscriber = Subscriber.objects.get(channel=Channel.SLACK)
    assert not subscriber.is_active
    [confirmation] = slack_sink.payloads()
    [path] = re.findall(r"https?://[^/\s]+(/subscribe/confirm/[^/\s>|]+/)", confirmation["text"])
    assert post(path, {}, json_body=False).status_code == 200
    subscriber.refresh_from_db()
    assert subscriber.is_active


def test_confirmations_posted_to_one_chat_channel_are_limited_whoever_asks(post, slack_sink, settings):
    settings.SUBSCRIBE_RATE_PER_ADDRESS = 2
    answers = [
        post(
            "/subscribe/api/",
            {"channel": "slack", "target": slack_sink.url, "email": f"r{n}@example.com", "language": "en"},
            address=f"203.0.113.{n}",
        ).status_code
        for n in range(1, 4)
    ]

    assert answers == [202, 202, 429]
    assert len(slack_sink.requests) == 2
