"""The subscribe page's chat and SMS sections: a chat channel is confirmed by the link posted to
the channel itself, and only then hears the updates."""

import json
import re

import pytest
from django.core import mail

from incidents.channels import outbox
from incidents.models import Channel, Subscriber

from .chat_sinks import *  # noqa: F403 - the receivers are fixtures

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(client, django_capture_on_commit_callbacks):
    """A client whose requests run their after-commit work (the mails), as in production."""
    post = client.post

    def committing_post(*args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return post(*args, **kwargs)

    client.post = committing_post
    return client


def confirm_path(text: str) -> str:
    return re.search(r"https?://[^/\s]+((?:/[a-z]{2})?/subscribe/confirm/[^/\s>|]+/)", text).group(1)


def confirm_and_hear(client, confirmation: str, sink, declare, title: str) -> dict:
    """Follows the confirmation link, declares an incident and returns the one post `sink` got
    after the confirmation."""
    heard_before = len(sink.requests)
    assert client.post(confirm_path(confirmation)).status_code == 200
    declare(title)
    outbox.deliver_due(seconds=30)
    [payload] = sink.payloads()[heard_before:]
    return payload


def test_the_page_has_a_section_per_chat_channel_and_sms_only_when_the_public_may_add_numbers(
    client, settings
):
    settings.SMS_APPRISE_URL = ""
    page = client.get("/subscribe/").content.decode()
    for channel in ("slack", "teams", "apprise"):
        assert f'<section id="{channel}"' in page
        assert f'action="/subscribe/chat/{channel}/"' in page
        assert f'href="#{channel}"' in page
    assert 'id="sms"' not in page
    assert client.post("/subscribe/chat/sms/", {"target": "+4712345678"}).status_code == 404

    settings.SMS_APPRISE_URL = "json://127.0.0.1:9/sms/{number}"
    assert 'id="sms"' not in client.get("/subscribe/").content.decode()

    settings.PUBLIC_SMS_SUBSCRIPTIONS = True
    page = client.get("/subscribe/").content.decode()
    assert '<section id="sms"' in page
    assert 'id="sms-target"' in page and 'inputmode="tel"' in page


def test_a_slack_channel_subscribed_on_the_page_hears_after_someone_in_it_follows_the_posted_link(
    client, slack_sink, declare
):
    response = client.post("/subscribe/chat/slack/", {"target": slack_sink.url, "language": "en"})

    assert response.status_code == 200
    assert b"Check the channel" in response.content
    subscriber = Subscriber.objects.get(channel=Channel.SLACK)
    assert (subscriber.target, subscriber.email, subscriber.confirmed_at) == (slack_sink.url, "", None)
    assert mail.outbox == []
    [confirmation] = slack_sink.payloads()
    declare("Before confirming")
    outbox.deliver_due(seconds=30)
    assert len(slack_sink.requests) == 1

    payload = confirm_and_hear(client, confirmation["text"], slack_sink, declare, "After confirming")
    assert payload["blocks"][0]["text"]["text"] == "After confirming"


@pytest.mark.parametrize(
    ("channel", "target", "message"),
    [
        ("sms", "12345", "international format"),
        ("apprise", "mailto://a:b@example.com", "Apprise URL"),
        ("slack", "ftp://example.com/x", "http"),
        ("teams", "", "required"),
    ],
)
def test_a_bad_target_is_refused_on_its_field_and_nothing_is_stored(
    client, settings, channel, target, message
):
    settings.SMS_APPRISE_URL = "json://127.0.0.1:9/sms/{number}"
    settings.PUBLIC_SMS_SUBSCRIPTIONS = True
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    response = client.post(f"/subscribe/chat/{channel}/", {"target": target, "language": "en"})

    assert response.status_code == 400
    page = response.content.decode()
    section = page[page.index(f'<section id="{channel}"') :]
    section = section[: section.index("</section>")]
    assert f'id="{channel}-target_error"' in section
    assert message in section
    assert not Subscriber.objects.exists()
    assert mail.outbox == []


def test_an_unknown_channel_is_not_found(client):
    assert client.post("/subscribe/chat/pager/", {"target": "x"}).status_code == 404
    assert client.get("/subscribe/chat/slack/").status_code == 302


def _post_json(client, body: dict):
    return client.post("/subscribe/api/", body, content_type="application/json")


def test_the_json_endpoint_subscribes_a_slack_channel_that_hears_after_the_posted_link_is_followed(
    client, slack_sink, declare
):
    response = _post_json(client, {"channel": "slack", "target": slack_sink.url, "language": "nb"})

    assert response.status_code == 202
    assert "channel" in response.json()["detail"]
    subscriber = Subscriber.objects.get()
    assert (subscriber.channel, subscriber.target, subscriber.language) == (
        Channel.SLACK,
        slack_sink.url,
        "nb",
    )
    assert mail.outbox == []
    [confirmation] = slack_sink.payloads()
    payload = confirm_and_hear(client, confirmation["text"], slack_sink, declare, "Heard on Slack")
    assert payload["blocks"][0]["text"]["text"] == "Heard on Slack"


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"channel": "pager", "target": "x", "email": "ops@example.com"}, "channel", "slack"),
        ({"channel": ["slack"], "email": "ops@example.com"}, "channel", "webhook"),
        ({"channel": "sms", "target": "+4712345678", "email": "ops@example.com"}, "channel", "teams"),
        ({"channel": "slack", "target": "ftp://example.com/x", "email": "ops@example.com"}, "target", "http"),
        ({"channel": "teams", "email": "ops@example.com"}, "target", "required"),
        ({"channel": "webhook", "email": "ops@example.com"}, "endpoint_url", "required"),
    ],
)
def test_the_json_endpoint_refuses_a_channel_or_target_naming_the_field(
    client, settings, body, field, message
):
    settings.SMS_APPRISE_URL = ""  # SMS is offered only with a gateway
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    response = _post_json(client, body)

    assert response.status_code == 400
    errors = response.json()["errors"]
    texts = [e if isinstance(e, str) else e["message"] for e in errors[field]]
    assert message in " ".join(texts)
    assert not Subscriber.objects.exists()
    assert mail.outbox == []


@pytest.mark.parametrize("sink_name", ["teams_sink", "json_sink"])
def test_teams_and_apprise_channels_are_posted_a_confirmation_their_service_accepts(
    client, request, sink_name
):
    sink = request.getfixturevalue(sink_name)
    channel = "teams" if sink_name == "teams_sink" else "apprise"

    response = client.post(f"/subscribe/chat/{channel}/", {"target": sink.url, "language": "en"})

    assert response.status_code == 200
    assert sink.refused == []
    [request_] = sink.requests
    assert client.post(confirm_path(request_["body"].decode())).status_code == 200
    assert Subscriber.objects.get().is_active


def test_subscribing_a_confirmed_channel_again_posts_its_manage_link_there(client, slack_sink):
    client.post("/subscribe/chat/slack/", {"target": slack_sink.url, "language": "en"})
    [confirmation] = slack_sink.payloads()
    client.post(confirm_path(confirmation["text"]))

    response = client.post("/subscribe/chat/slack/", {"target": slack_sink.url, "language": "nb"})

    assert response.status_code == 200
    assert Subscriber.objects.get().language == "en"
    manage = slack_sink.payloads()[1]["text"]
    assert re.search(r"/subscribe/manage/[^/\s>|]+/", manage)
    assert mail.outbox == []


def test_a_number_subscribed_on_the_page_hears_after_the_code_texted_to_it_is_entered(
    client, sms_gateway, settings, declare
):
    settings.PUBLIC_SMS_SUBSCRIPTIONS = True

    response = client.post("/subscribe/chat/sms/", {"target": "+47 123 45 678", "language": "en"})

    assert response.status_code == 200
    page = response.content.decode()
    assert "Enter the code" in page
    code_url = re.search(r'action="(/subscribe/code/[^"]+/)"', page).group(1)
    [request_] = sms_gateway.requests
    assert request_["path"] == "/sms/+4712345678"
    [code] = re.findall(r"\b\d{6}\b", json.loads(request_["body"])["message"])
    declare("Before the code")
    outbox.deliver_due(seconds=30)
    assert len(sms_gateway.requests) == 1

    confirmed = client.post(code_url, {"code": code})

    assert confirmed.status_code == 200
    assert b"Subscription confirmed" in confirmed.content
    declare("After the code")
    outbox.deliver_due(seconds=30)
    assert "After the code" in json.loads(sms_gateway.requests[-1]["body"])["message"]
