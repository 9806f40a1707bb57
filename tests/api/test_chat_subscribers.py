"""Chat and SMS subscribers through POST /api/v1/subscribers/ with `channel` and `target`:
confirmed at once, targets with credentials never read back, bad targets a 400 on `target`."""

import pytest
from django.core import mail

from incidents.models import AuditEvent, Channel, Subscriber

SLACK_URL = "http://127.0.0.1:9/services/T0001/B0001/s3cr3tT0k3n"


@pytest.fixture
def writer(client_as, settings):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    return client_as("write_token")


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_an_admin_adds_a_slack_subscriber_confirmed_at_once_with_its_url_masked(page, writer, on_commit):
    body = {
        "channel": "slack",
        "target": SLACK_URL,
        "language": "nb",
        "components": [page["webhooks"].public_id],
    }

    with on_commit():
        response = writer.post("/api/v1/subscribers/", body, format="json")

    assert response.status_code == 201, response.content
    data = response.json()
    assert (data["channel"], data["is_active"], data["language"]) == ("slack", True, "nb")
    assert data["target"].startswith("http://127.0.0.1:9/••••")
    assert "s3cr3tT0k3n" not in response.content.decode()
    assert Subscriber.objects.get(public_id=data["id"]).target == SLACK_URL
    assert mail.outbox == []
    listed = writer.get("/api/v1/subscribers/").content.decode()
    assert "s3cr3tT0k3n" not in listed
    assert "s3cr3tT0k3n" not in str(AuditEvent.objects.get(action="subscriber.created").__dict__)


@pytest.mark.parametrize(
    ("channel", "target", "shown"),
    [
        ("teams", "http://127.0.0.1:9/workflows/x/invoke?sig=abc123", "http://127.0.0.1:9/••••"),
        ("apprise", "discord://4174216298/JHMHI8qBe7bk2ZwO5U711o3dV_js", "discord://••••"),
        ("apprise", "json://127.0.0.1:9/notify", "json://••••"),
    ],
)
def test_chat_targets_are_write_only(channel, target, shown, page, writer):
    response = writer.post(
        "/api/v1/subscribers/", {"channel": channel, "target": target, "language": "en"}, format="json"
    )

    assert response.status_code == 201, response.content
    assert response.json()["target"].startswith(shown)
    assert target not in response.content.decode()


def test_an_sms_subscriber_is_stored_in_international_form_and_shown(page, writer, settings):
    settings.SMS_APPRISE_URL = "json://127.0.0.1:9/sms/{number}"
    response = writer.post(
        "/api/v1/subscribers/",
        {"channel": "sms", "target": "0047 123 45 678", "language": "es"},
        format="json",
    )

    assert response.status_code == 201, response.content
    assert response.json()["target"] == "+4712345678"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"channel": "sms", "target": "12345"}, "target"),
        ({"channel": "sms", "target": "+47 abc"}, "target"),
        ({"channel": "slack", "target": "ftp://hooks.example.com/x"}, "target"),
        ({"channel": "slack", "target": "http://169.254.169.254/latest"}, "target"),
        ({"channel": "slack"}, "target"),
        ({"channel": "teams", "target": "http://127.0.0.1:9/x\r\nX-Evil: 1"}, "target"),
        ({"channel": "apprise", "target": "mailto://user:pass@example.com"}, "target"),
        ({"channel": "apprise", "target": "discord://"}, "target"),
        ({"channel": "apprise", "target": "json://169.254.169.254/x"}, "target"),
        ({"channel": "pager", "target": "x"}, "channel"),
        ({"channel": "email", "target": "not-an-address"}, "target"),
        ({"channel": "email"}, "target"),
        ({"channel": "webhook", "target": "http://127.0.0.1:9/h"}, "email"),
        ({"channel": "slack", "target": SLACK_URL, "endpoint_url": "http://127.0.0.1:9/h"}, "endpoint_url"),
    ],
)
def test_a_bad_target_is_a_400_naming_the_field_and_nothing_is_stored(body, field, page, writer, settings):
    settings.SMS_APPRISE_URL = "json://127.0.0.1:9/sms/{number}"
    response = writer.post("/api/v1/subscribers/", {"language": "en", **body}, format="json")

    assert response.status_code == 400, response.content
    assert list(response.json()) == [field]
    assert not Subscriber.objects.exists()


def test_sms_is_refused_on_channel_when_no_gateway_is_configured(page, writer, settings):
    settings.SMS_APPRISE_URL = ""
    response = writer.post(
        "/api/v1/subscribers/", {"channel": "sms", "target": "+4712345678", "language": "en"}, format="json"
    )

    assert response.status_code == 400
    assert list(response.json()) == ["channel"]


def test_the_same_chat_target_twice_is_refused_on_target(page, writer):
    body = {"channel": "slack", "target": SLACK_URL, "language": "en"}
    assert writer.post("/api/v1/subscribers/", body, format="json").status_code == 201

    again = writer.post("/api/v1/subscribers/", body, format="json")

    assert again.status_code == 400
    assert list(again.json()) == ["target"]
    assert Subscriber.objects.count() == 1


def test_email_and_webhook_subscribers_can_use_channel_and_target(page, writer, on_commit):
    with on_commit():
        email = writer.post(
            "/api/v1/subscribers/",
            {"channel": "email", "target": "ana@example.com", "language": "en", "confirmed": True},
            format="json",
        )
        hook = writer.post(
            "/api/v1/subscribers/",
            {
                "channel": "webhook",
                "target": "http://127.0.0.1:9/h",
                "email": "ops@example.com",
                "language": "en",
            },
            format="json",
        )

    assert email.status_code == hook.status_code == 201, (email.content, hook.content)
    assert email.json()["email"] == email.json()["target"] == "ana@example.com"
    assert hook.json()["endpoint_url"] == hook.json()["target"] == "http://127.0.0.1:9/h"
    assert Subscriber.objects.get(channel=Channel.WEBHOOK).confirmed_at is None
    assert [message.to for message in mail.outbox] == [["ops@example.com"]]


def test_viewers_and_responders_cannot_add_chat_subscribers(page, client_as):
    for persona in ("viewer", "responder", "outsider"):
        response = client_as(persona).post(
            "/api/v1/subscribers/", {"channel": "slack", "target": SLACK_URL, "language": "en"}, format="json"
        )
        assert response.status_code == 403
    assert not Subscriber.objects.exists()
