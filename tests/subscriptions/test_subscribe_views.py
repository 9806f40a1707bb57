"""The public subscription flow: subscribe, confirm, manage, unsubscribe, and bad input."""

import datetime as dt
import re

import pytest
import time_machine
from django.core import mail

from incidents.lifecycle.commands import PostUpdate, ResolveIncident
from incidents.lifecycle.updates import post_update, resolve_incident
from incidents.models import Channel, Delivery, Subscriber

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


def link_in(message, name: str) -> str:
    return re.search(rf"http\S+/subscribe/{name}/[^/\s]+/", message.body).group(0)


def path_of(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def test_subscribing_sends_a_confirmation_and_nothing_else_until_confirmed(client, declare):
    response = client.post("/subscribe/", {"email": "reader@example.com", "language": "en"})

    assert response.status_code == 200
    assert b"Check your inbox" in response.content
    subscriber = Subscriber.objects.get(email="reader@example.com")
    assert subscriber.confirmed_at is None
    assert len(mail.outbox) == 1
    assert "Confirm" in mail.outbox[0].subject
    declare()
    assert not Delivery.objects.filter(subscriber=subscriber).exists()


def test_confirmation_link_confirms_on_post_only(client, declare):
    client.post("/subscribe/", {"email": "reader@example.com", "language": "en"})
    path = path_of(link_in(mail.outbox[0], "confirm"))

    assert client.get(path).status_code == 200
    assert Subscriber.objects.get().confirmed_at is None  # a mail scanner opening the link

    response = client.post(path)
    assert response.status_code == 200
    assert b"Subscription confirmed" in response.content
    assert Subscriber.objects.get().confirmed_at is not None
    declare()
    assert Delivery.objects.filter(subscriber__email="reader@example.com").count() == 1


def test_confirmation_link_expires(client, settings):
    settings.SUBSCRIBE_CONFIRM_MAX_AGE_SECONDS = 3600
    client.post("/subscribe/", {"email": "reader@example.com", "language": "en"})
    path = path_of(link_in(mail.outbox[0], "confirm"))

    with time_machine.travel(dt.datetime.now(dt.UTC) + dt.timedelta(hours=2)):
        response = client.post(path)

    assert response.status_code == 404
    assert b"This link does not work" in response.content
    assert Subscriber.objects.get().confirmed_at is None


def test_answer_is_the_same_for_a_known_address(client, make_subscriber):
    make_subscriber("known@example.com")
    known = client.post("/subscribe/", {"email": "known@example.com", "language": "en"})
    unknown = client.post("/subscribe/", {"email": "new@example.com", "language": "en"})

    assert known.status_code == unknown.status_code == 200
    assert known.content.replace(b"known@", b"X@") == unknown.content.replace(b"new@", b"X@")
    # The known address is mailed a manage link instead of a second confirmation.
    assert "/subscribe/manage/" in mail.outbox[0].body
    assert "/subscribe/confirm/" in mail.outbox[1].body


def test_public_form_cannot_change_a_confirmed_subscribers_preferences(client, make_subscriber, component):
    subscriber = make_subscriber("known@example.com", language="nb")
    client.post("/subscribe/", {"email": "known@example.com", "language": "ru", "components": ["webhooks"]})

    subscriber.refresh_from_db()
    assert subscriber.language == "nb"
    assert subscriber.all_components
    assert subscriber.confirmed_at is not None


def test_rate_limit_per_address(client, settings):
    settings.SUBSCRIBE_RATE_PER_ADDRESS = 2
    for _ in range(2):
        assert (
            client.post("/subscribe/", {"email": "reader@example.com", "language": "en"}).status_code == 200
        )

    response = client.post("/subscribe/", {"email": "reader@example.com", "language": "en"})

    assert response.status_code == 429
    assert b"Too many requests for this address" in response.content
    assert len(mail.outbox) == 2


def test_rate_limit_per_client_address(client, settings):
    settings.SUBSCRIBE_RATE_PER_CLIENT = 2
    for n in range(2):
        client.post(
            "/subscribe/", {"email": f"r{n}@example.com", "language": "en"}, REMOTE_ADDR="203.0.113.9"
        )

    response = client.post(
        "/subscribe/", {"email": "r9@example.com", "language": "en"}, REMOTE_ADDR="203.0.113.9"
    )
    other = client.post(
        "/subscribe/", {"email": "r9@example.com", "language": "en"}, REMOTE_ADDR="203.0.113.10"
    )

    assert response.status_code == 429
    assert b"Too many subscription requests from your network" in response.content
    assert other.status_code == 200
    assert Subscriber.objects.filter(email="r9@example.com").count() == 1


BAD_INPUT = [
    ({"email": "not-an-address", "language": "en"}, "email", "valid email"),
    ({"email": "a" * 10_230 + "@example.com", "language": "en"}, "email", "at most 254"),
    (
        {"email": "reader@example.com", "language": "en", "components": ["no-such"]},
        "components",
        "valid choice",
    ),
    ({"email": "reader@example.com", "language": "xx"}, "language", "valid choice"),
    ({"email": "reader@example.com\r\nBcc: all@example.com", "language": "en"}, "email", "Line breaks"),
    ({"email": "reader@example.com\n", "language": "en"}, "email", "Line breaks"),
    (
        {"email": "reader@example.com", "language": "en", "endpoint_url": "http://169.254.169.254/"},
        "endpoint_url",
        "metadata",
    ),
]


@pytest.mark.parametrize(("data", "field", "message"), BAD_INPUT)
def test_bad_input_on_the_form_is_refused_and_nothing_is_stored(client, component, data, field, message):
    response = client.post("/subscribe/webhook/" if "endpoint_url" in data else "/subscribe/", data)

    assert response.status_code == 400
    errors = response.context["form"].errors
    assert field in errors
    assert message in " ".join(errors[field])
    assert not Subscriber.objects.exists()
    assert not mail.outbox


@pytest.mark.parametrize(("data", "field", "message"), BAD_INPUT)
def test_bad_input_on_the_json_api_is_refused_and_nothing_is_stored(client, component, data, field, message):
    response = client.post("/subscribe/api/", data, content_type="application/json")

    assert response.status_code == 400
    errors = response.json()["errors"]
    assert message in " ".join(e["message"] for e in errors[field])
    assert not Subscriber.objects.exists()
    assert not mail.outbox


def test_json_api_subscribes_with_the_same_answer(client, component):
    response = client.post(
        "/subscribe/api/",
        {"email": "bot@example.com", "language": "ru", "components": ["webhooks"]},
        content_type="application/json",
    )

    assert response.status_code == 202
    subscriber = Subscriber.objects.get()
    assert (subscriber.language, subscriber.all_components) == ("ru", False)
    assert list(subscriber.components.all()) == [component]
    assert "/ru/subscribe/confirm/" in mail.outbox[0].body


def test_json_api_refuses_a_body_that_is_not_json(client):
    response = client.post("/subscribe/api/", b"{nope", content_type="application/json")
    assert response.status_code == 400
    assert not Subscriber.objects.exists()


def test_one_click_unsubscribe_is_idempotent_and_needs_no_login(client, make_subscriber, declare):
    from incidents.channels.links import manage_token

    subscriber = make_subscriber()
    declare()
    assert Delivery.objects.filter(subscriber=subscriber, state="pending").count() == 1
    path = f"/subscribe/unsubscribe/{manage_token(subscriber)}/"

    first = client.post(path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")
    second = client.post(path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded")

    assert first.status_code == second.status_code == 200
    subscriber.refresh_from_db()
    assert subscriber.unsubscribed_at is not None
    assert not Delivery.objects.filter(subscriber=subscriber).exists()
    declare("Another incident")
    assert not Delivery.objects.filter(subscriber=subscriber).exists()


def test_unsubscribe_link_asks_before_acting(client, make_subscriber):
    from incidents.channels.links import manage_token

    subscriber = make_subscriber()
    response = client.get(f"/subscribe/unsubscribe/{manage_token(subscriber)}/")

    assert response.status_code == 200
    subscriber.refresh_from_db()
    assert subscriber.unsubscribed_at is None


def test_a_forged_unsubscribe_token_is_refused(client, make_subscriber):
    subscriber = make_subscriber()
    response = client.post(f"/subscribe/unsubscribe/{subscriber.public_id}:forged:sig/")

    assert response.status_code == 404
    subscriber.refresh_from_db()
    assert subscriber.unsubscribed_at is None


def test_manage_page_changes_language_and_components(client, make_subscriber, component, make_component):
    from incidents.channels.links import manage_token

    subscriber = make_subscriber()
    response = client.post(
        f"/subscribe/manage/{manage_token(subscriber)}/", {"language": "es", "components": ["webhooks"]}
    )

    assert response.status_code == 200
    assert b"preferences are saved" in response.content
    subscriber.refresh_from_db()
    assert subscriber.language == "es"
    assert list(subscriber.components.all()) == [component]
    assert not subscriber.all_components


def test_following_an_incident_ends_when_it_resolves(client, declare, responder):

    from incidents.services.subscriptions import confirm_subscription

    incident = declare()
    response = client.post(
        f"/subscribe/incidents/{incident.slug}/", {"email": "fan@example.com", "language": "en"}
    )
    assert response.status_code == 200
    follower = confirm_subscription(Subscriber.objects.get(email="fan@example.com"))

    post_update(
        incident, PostUpdate(status="identified", body={"en": "Found it."}, language="en"), actor=responder
    )
    resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)
    other = declare("Something else")
    post_update(other, PostUpdate(status="identified", body={"en": "Found."}, language="en"), actor=responder)

    received = Delivery.objects.filter(subscriber=follower).values_list("update__body", flat=True)
    assert sorted(b["en"] for b in received) == ["Fixed.", "Found it."]
    follower.refresh_from_db()
    assert follower.follow_ended_at is not None
    assert follower.unsubscribed_at is None  # a resolution is not an unsubscribe: a reopen wakes it


def test_a_resolved_incident_cannot_be_followed(client, declare, responder):

    incident = declare()
    resolve_incident(incident, ResolveIncident(body={"en": "Fixed."}, language="en"), actor=responder)

    response = client.post(
        f"/subscribe/incidents/{incident.slug}/", {"email": "fan@example.com", "language": "en"}
    )

    assert response.status_code == 400
    assert not Subscriber.objects.exists()


def test_webhook_subscription_shows_its_secret_once_when_confirmed_and_never_again(client, settings):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    client.post(
        "/subscribe/webhook/",
        {"email": "ops@example.com", "language": "en", "endpoint_url": "http://127.0.0.1:8650/hook"},
    )
    subscriber = Subscriber.objects.get()
    assert subscriber.channel == "webhook"

    response = client.post(path_of(link_in(mail.outbox[0], "confirm")))
    again = client.post(path_of(link_in(mail.outbox[0], "confirm")))

    subscriber.refresh_from_db()
    assert subscriber.webhook_secret in response.content.decode()
    assert again.status_code == 200
    assert subscriber.webhook_secret not in again.content.decode()  # shown once


def test_the_form_lists_components_and_languages(client, component):
    response = client.get("/subscribe/")

    assert response.status_code == 200
    assert b'value="webhooks"' in response.content
    assert b'value="nb"' in response.content


def test_the_form_speaks_the_language_of_its_url(client):
    response = client.post("/ru/subscribe/", {"email": "ivan@example.com", "language": "ru"})

    assert response.status_code == 200
    assert "/ru/subscribe/confirm/" in mail.outbox[0].body


@pytest.mark.parametrize(
    ("language", "question"),
    [
        ("en", "Stop all status updates to Slack: https://hooks.slack.com/"),
        ("ru", "Прекратить отправку обновлений"),
    ],
)
def test_a_slack_subscriber_is_told_its_channel_not_emails_and_never_the_secret_part(
    client, make_subscriber, language, question
):
    from incidents.channels.links import manage_token

    secret = "T0SECRET/B0SECRET/abcdefghijklmnopqrstuvwx"
    subscriber = make_subscriber(
        "lead@example.com",
        channel=Channel.SLACK,
        target=f"https://hooks.slack.com/services/{secret}",
        language=language,
    )
    token = manage_token(subscriber)
    prefix = "" if language == "en" else f"/{language}"

    pages = [
        client.get(f"{prefix}/subscribe/unsubscribe/{token}/").content.decode(),
        client.get(f"{prefix}/subscribe/manage/{token}/").content.decode(),
        client.post(f"{prefix}/subscribe/unsubscribe/{token}/").content.decode(),
    ]

    assert question in pages[0]
    for page in pages:
        assert "hooks.slack.com" in page
        assert "T0SECRET" not in page and "abcdefghijklmnopqrstuvwx" not in page
        assert "lead@example.com" not in page
    assert "emails" not in pages[0] and "писем" not in pages[0]


def test_an_email_subscribers_pages_name_its_address(client, make_subscriber):
    from incidents.channels.links import manage_token

    subscriber = make_subscriber("reader@example.com")

    page = client.get(f"/subscribe/unsubscribe/{manage_token(subscriber)}/").content.decode()

    assert "Stop all status updates to reader@example.com?" in page
