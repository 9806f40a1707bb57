"""Mentions written in an incident's title or update (by staff, an alert or an import) reach no
chat service as mentions: not `@everyone`, `@here` or a role or user (Discord), not
`<!channel>`, `<!here>`, `@channel` or a user (Slack), not `@all`, `@channel` or a user
(Mattermost, Telegram), not `@room` (Matrix), in what each service receives. The words are still
there to read, and an email address in the text is left as written."""

import json
import re

import pytest

from incidents.channels import chat_services, outbox
from incidents.models import Channel, Delivery, DeliveryState

from .receivers import *  # noqa: F403 - the receivers and subscription fixtures

pytestmark = pytest.mark.django_db

TITLE = "Checkout down @everyone @here <@&123456> <@!987654> <!channel> @room @all"
BODY = "Paging <!here> <@U024BE7LH> @channel @alice: write to ops@example.com for updates."
# Each service's mention syntax, as it reads it in what it receives.
MENTION = re.compile(
    r"(?<![\w.+-])@(?:everyone|here|channel|all|room|alice)\b"
    r"|@(?:everyone|here)\b"
    r"|<@[!&]?\w+>"
    r"|<!(?:channel|here|everyone)>",
    re.IGNORECASE,
)


def mentions_in(received: str) -> list[str]:
    return MENTION.findall(received)


def assert_heard_without_mentions(received: str) -> None:
    assert "Checkout down" in received and "write to" in received
    assert mentions_in(received) == [], received
    assert "ops@example.com" in received


@pytest.fixture
def announced(declare):
    def announce():
        declare(TITLE, body=BODY)
        outbox.deliver_due(seconds=30)
        delivery = Delivery.objects.get()
        assert delivery.state == DeliveryState.SENT, delivery.last_error

    return announce


@pytest.fixture
def fixed_hosts(settings, monkeypatch, witness):
    """discord.com and api.telegram.org, played by one local receiver."""
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    receiver = witness({"/bot": {"ok": True, "result": {"message_id": 1}}})
    for scheme in ("discord", "tgram"):
        monkeypatch.setitem(chat_services.API, scheme, f"http://127.0.0.1:{receiver.port}")
    return receiver


@pytest.mark.parametrize("channel", [Channel.SLACK, Channel.TEAMS])
def test_slack_and_teams_messages_carry_no_mentions(
    channel, slack_sink, teams_sink, make_subscriber, announced
):
    sink = slack_sink if channel == Channel.SLACK else teams_sink
    make_subscriber("", channel=channel, target=sink.url)

    announced()

    [payload] = sink.payloads()
    assert_heard_without_mentions(json.dumps(payload, ensure_ascii=False))


@pytest.mark.parametrize("scheme", ["json", "mmost"])
def test_generic_json_and_mattermost_messages_carry_no_mentions(
    scheme, chat_sink, make_subscriber, announced
):
    sink = chat_sink()
    target = f"json://{sink.base}/notify" if scheme == "json" else f"mmost://{sink.base}/mattermosttoken"
    make_subscriber("", channel=Channel.APPRISE, target=target)

    announced()

    [payload] = sink.payloads()
    assert_heard_without_mentions(json.dumps(payload, ensure_ascii=False))


def test_a_matrix_message_does_not_notify_the_room(settings, witness, make_subscriber, announced):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    homeserver = witness(
        {
            "/_matrix/client/v3/join/": {"room_id": "!ops:127.0.0.1"},
            "/_matrix/client/v3/rooms/": {"event_id": "$e"},
        }
    )
    make_subscriber("", channel=Channel.APPRISE, target=f"matrix://token@127.0.0.1:{homeserver.port}/#ops")

    announced()

    [message] = [body for method, path, body in homeserver.requests if "/send/m.room.message/" in path]
    assert_heard_without_mentions(json.dumps(json.loads(message), ensure_ascii=False))


@pytest.mark.parametrize(
    "target",
    [
        "discord://4174216298/JHMHI8qBe7bk2ZwO5U711o3dV_js",
        "tgram://123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/-1001234567890",
    ],
    ids=["discord", "telegram"],
)
def test_discord_and_telegram_messages_carry_no_mentions(target, fixed_hosts, make_subscriber, announced):
    make_subscriber("", channel=Channel.APPRISE, target=target)

    announced()

    [(_method, _path, body)] = fixed_hosts.requests
    assert_heard_without_mentions(json.dumps(json.loads(body), ensure_ascii=False))
