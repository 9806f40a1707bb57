"""Subscribers through /api/v1/ (admins only): double opt-in kept, secrets never shown, audited."""

import json

import pytest
from django.core import mail

from incidents.lifecycle.commands import PostUpdate
from incidents.lifecycle.updates import post_update
from incidents.models import AuditEvent, Delivery, Subscriber

SECRET_KEYS = {"token_key", "webhook_secret", "token", "secret"}


@pytest.fixture
def writer(client_as):
    return client_as("write_token")


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Runs the request's after-commit work (the confirmation mail) as a real commit would."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_an_api_created_subscriber_still_confirms_by_email(page, writer, on_commit):
    body = {"email": "ana@example.com", "language": "ru", "components": [page["webhooks"].public_id]}

    with on_commit():
        response = writer.post("/api/v1/subscribers/", body, format="json")

    assert response.status_code == 201, response.content
    created = Subscriber.objects.get(public_id=response.json()["id"])
    assert created.confirmed_at is None and not response.json()["is_active"]
    assert response.json()["components"] == [page["webhooks"].public_id]
    assert [message.to for message in mail.outbox] == [["ana@example.com"]]
    assert "/subscribe/" in mail.outbox[0].body
    assert not SECRET_KEYS & set(response.json())
    assert created.token_key not in response.content.decode()


def test_an_admin_may_create_an_email_subscriber_already_confirmed_without_mail(
    page, writer, on_commit, admin
):
    with on_commit():
        response = writer.post(
            "/api/v1/subscribers/",
            {"email": "bo@example.com", "language": "en", "confirmed": True},
            format="json",
        )

    assert response.status_code == 201
    assert response.json()["is_active"] is True and response.json()["all_components"] is True
    assert mail.outbox == []
    event = AuditEvent.objects.get(action="subscriber.created")
    assert event.actor == admin and event.after["confirmed"] is True
    assert "bo@example.com" not in event.subject_label  # viewers read the audit trail


def test_a_confirmed_subscriber_gets_the_next_update(page, writer, admin, on_commit):
    writer.post(
        "/api/v1/subscribers/",
        {"email": "cy@example.com", "language": "en", "confirmed": True},
        format="json",
    )

    with on_commit():
        post_update(
            page["incident"],
            PostUpdate(status="monitoring", body={"en": "Better."}, language="en"),
            actor=admin,
        )

    assert Delivery.objects.filter(subscriber__email="cy@example.com").count() == 1


def test_a_webhook_subscriber_cannot_be_created_confirmed(page, writer, on_commit):
    body = {"email": "ops@example.com", "endpoint_url": "http://93.184.216.34/hook", "language": "en"}

    with on_commit():
        refused = writer.post("/api/v1/subscribers/", {**body, "confirmed": True}, format="json")
        accepted = writer.post("/api/v1/subscribers/", body, format="json")

    assert refused.status_code == 400 and "confirmed" in refused.json()
    assert accepted.status_code == 201 and accepted.json()["channel"] == "webhook"
    assert len(mail.outbox) == 1  # the contact confirms, and is shown the secret then
    stored = Subscriber.objects.get(public_id=accepted.json()["id"])
    assert stored.webhook_secret not in accepted.content.decode()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"email": "not an address", "language": "en"}, "email"),
        ({"email": "a@example.com\r\nBcc: b@example.com", "language": "en"}, "email"),
        ({"email": "a@example.com", "language": "xx"}, "language"),
        ({"email": "a@example.com", "language": "en", "components": ["nosuch"]}, "components"),
        ({"email": "a@example.com", "language": "en", "incident": "nosuch"}, "incident"),
        (
            {"email": "a@example.com", "language": "en", "endpoint_url": "http://169.254.169.254/"},
            "endpoint_url",
        ),
        (
            {"email": "a@example.com", "language": "en", "endpoint_url": "http://127.0.0.1/hook"},
            "endpoint_url",
        ),
        ({"email": "ops@example.com", "language": "en"}, "email"),  # already subscribed
        ({"language": "en"}, "email"),
    ],
)
def test_bad_subscribers_are_field_errors_and_nothing_is_stored_or_sent(
    page, subscriber, writer, on_commit, body, field
):
    count = Subscriber.objects.count()

    with on_commit():
        response = writer.post("/api/v1/subscribers/", body, format="json")

    assert response.status_code == 400, response.content
    assert field in response.json()
    assert Subscriber.objects.count() == count
    assert mail.outbox == []


def test_a_1_mb_subscriber_body_is_refused_with_413(page, writer):
    body = json.dumps({"email": "a@example.com", "language": "en", "components": ["x" * (1024 * 1024)]})

    response = writer.generic("POST", "/api/v1/subscribers/", body, content_type="application/json")

    assert response.status_code == 413
    assert not Subscriber.objects.exists()


def test_editing_changes_language_and_components_and_is_audited(page, subscriber, writer):
    url = f"/api/v1/subscribers/{subscriber.public_id}/"

    language = writer.patch(url, {"language": "nb"}, format="json")
    components = writer.patch(url, {"components": [page["webhooks"].public_id]}, format="json")
    everything = writer.patch(url, {"components": []}, format="json")

    assert language.json()["language"] == "nb"
    assert language.json()["components"] == [page["rest"].public_id]  # kept when not sent
    assert components.json()["components"] == [page["webhooks"].public_id]
    assert everything.json()["all_components"] is True and everything.json()["components"] == []
    changes = AuditEvent.objects.filter(action="subscriber.changed").order_by("id")
    assert [event.after for event in changes] == [
        {"language": "nb"},
        {"components": [page["webhooks"].public_id]},
        {"components": "all"},
    ]


def test_deleting_a_subscriber_forgets_it(subscriber, writer):
    response = writer.delete(f"/api/v1/subscribers/{subscriber.public_id}/")

    assert response.status_code == 204
    assert not Subscriber.objects.filter(pk=subscriber.pk).exists()
    assert AuditEvent.objects.get(action="subscriber.deleted").subject_id == subscriber.public_id


def test_subscribers_are_listed_without_secrets_and_filtered(page, subscriber, writer):
    writer.post("/api/v1/subscribers/", {"email": "dee@example.com", "language": "en"}, format="json")

    def emails(query=""):
        response = writer.get(f"/api/v1/subscribers/?{query}")
        assert response.status_code == 200, response.content
        for row in response.json()["results"]:
            assert not SECRET_KEYS & set(row)
        return sorted(row["email"] for row in response.json()["results"])

    assert emails() == ["dee@example.com", "ops@example.com"]
    assert emails("confirmed=true") == ["ops@example.com"]
    assert emails("email=DEE@example.com") == ["dee@example.com"]
    assert emails("channel=webhook") == []
    assert emails(f"component={page['webhooks'].slug}") == ["dee@example.com"]  # follows the whole page
    assert writer.get("/api/v1/subscribers/?channel=pigeon").status_code == 400
