"""Chat services and the SMS gateway reach no refused address: a chat target whose name answered
a public address when it was checked and loopback when the message is sent, an SMS gateway (sent
through Apprise, over requests) whose name stands for loopback, and a Matrix homeserver whose
`.well-known` would hand over another address reach nothing.

Each case keeps a local listener where the attack would land (`Witness`) and shows it accepted no
connection at all; the delivery fails for good with `Address refused`."""

import pytest

from incidents.channels import chat_services, outbox
from incidents.models import Channel, Delivery, DeliveryState
from tests.outbound.rebinding import RebindingDns

from .receivers import *  # noqa: F403 - the receivers and subscription fixtures

pytestmark = pytest.mark.django_db


@pytest.fixture
def dns(monkeypatch):
    return RebindingDns(monkeypatch)


@pytest.fixture
def private_targets_refused(settings):
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = False
    settings.NOTIFY_WEBHOOK_TIMEOUT_SECONDS = 2


def refused_delivery() -> Delivery:
    delivery = Delivery.objects.get()
    assert delivery.state == DeliveryState.FAILED, (delivery.state, delivery.last_error)
    assert delivery.last_error.startswith("Address refused"), delivery.last_error
    return delivery


@pytest.mark.parametrize(
    "target",
    [
        "matrix://token@{host}:{port}/#ops",
        "mmost://{host}:{port}/mattermosttoken",
        "json://{host}:{port}/notify",
    ],
    ids=["matrix", "mattermost", "json"],
)
def test_a_chat_target_rebound_to_loopback_after_the_check_gets_no_connection(
    target, private_targets_refused, dns, witness, make_subscriber, declare
):
    listener = witness()
    target = chat_services.check_target(target.format(host=dns.host, port=listener.port))  # public now
    make_subscriber("", channel=Channel.APPRISE, target=target)
    declare()
    dns.rebind("127.0.0.1")

    outbox.deliver_due(seconds=30)

    assert listener.accepted == []
    refused_delivery()


def test_an_sms_gateway_rebound_to_loopback_gets_no_connection(
    private_targets_refused, settings, dns, witness, make_subscriber, declare
):
    listener = witness()
    settings.SMS_APPRISE_URL = f"json://{dns.host}:{listener.port}/sms/{{number}}"
    make_subscriber("", channel=Channel.SMS, target="+4712345678")
    declare()
    dns.rebind("127.0.0.1")

    outbox.deliver_due(seconds=30)

    assert listener.accepted == []
    refused_delivery()


def test_a_vendor_sms_gateway_whose_name_stands_for_loopback_gets_no_connection(
    private_targets_refused, settings, dns, witness, make_subscriber, declare
):
    listener = witness()
    dns.host = "sms-gateway.example"
    dns.rebind("127.0.0.1")
    settings.SMS_APPRISE_URL = f"smseagle://gatewaytoken@{dns.host}:{listener.port}/{{number}}"
    make_subscriber("", channel=Channel.SMS, target="+4712345678")
    declare()

    outbox.deliver_due(seconds=30)

    assert listener.accepted == []
    refused_delivery()


@pytest.mark.filterwarnings("ignore::urllib3.exceptions.InsecureRequestWarning")  # its own certificate
def test_matrix_discovery_handing_over_another_address_reaches_nothing_there(
    settings, witness, make_subscriber, declare
):
    # The homeserver itself is on loopback (allowed here); what its .well-known names is not.
    settings.OUTBOUND_ALLOW_PRIVATE_TARGETS = True
    settings.NOTIFY_WEBHOOK_TIMEOUT_SECONDS = 2
    handed_over = witness()
    homeserver = witness(
        {
            # 0.0.0.0 is never allowed: Linux connects it to this host's own loopback.
            "/.well-known/matrix/client": {
                "m.homeserver": {"base_url": f"https://0.0.0.0:{handed_over.port}"}
            },
            "/_matrix/client/v3/join/": {"room_id": "!ops:127.0.0.1"},
            "/_matrix/client/v3/rooms/": {"event_id": "$sent"},
        },
        tls=True,
    )
    make_subscriber(
        "", channel=Channel.APPRISE, target=f"matrixs://token@127.0.0.1:{homeserver.port}/#ops?verify=no"
    )
    declare()

    outbox.deliver_due(seconds=30)

    assert handed_over.accepted == []
    assert not any(path.startswith("/.well-known/") for path in homeserver.paths)
    assert Delivery.objects.get().state == DeliveryState.SENT  # to the homeserver the URL names
