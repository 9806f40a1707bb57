"""Mail sent with RFC 2920 pipelining against a real aiosmtpd server: every mail's outcome is the
server's answer to it, refusals and a lost connection in the middle of a pipeline included, and
nothing counts as sent that the server did not accept."""

import email
import email.policy
import smtplib

import pytest

from incidents.channels import outbox
from incidents.channels.smtp_pipelining import Outgoing, data_block, send_all
from incidents.models import Delivery, DeliveryState

from .conftest import SinkHandler, serving


class ScriptedSink(SinkHandler):
    """The fixtures' sink, answering chosen recipients and messages as told, and noting for each
    MAIL whether the client had already sent the RCPT after it (pipelined) or was waiting."""

    def __init__(self, *, pipelining: bool = True):
        super().__init__()
        self.pipelining = pipelining
        self.rcpt_answers: dict[str, str] = {}
        self.data_answers: dict[str, str] = {}  # by recipient
        self.hang_up_at: str | None = None  # recipient whose message is taken without an answer
        self.mail_with_rcpt_waiting: list[bool] = []

    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        if self.pipelining:
            return await super().handle_EHLO(server, session, envelope, hostname, responses)
        session.host_name = hostname
        return responses

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        self.mail_with_rcpt_waiting.append(b"RCPT TO:" in bytes(server._reader._buffer))
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.rcpt_answers:
            return self.rcpt_answers[address]
        return await super().handle_RCPT(server, session, envelope, address, rcpt_options)

    async def handle_DATA(self, server, session, envelope):
        recipient = envelope.rcpt_tos[0]
        if recipient == self.hang_up_at:
            server.transport.close()
            return "250 OK"  # never reaches the client
        if recipient in self.data_answers:
            return self.data_answers[recipient]
        return await super().handle_DATA(server, session, envelope)

    def recipients(self) -> list[str]:
        return [m["To"] for m in self.messages]


@pytest.fixture
def scripted_sink(settings):
    yield from serving(ScriptedSink(), settings)


def mails(count: int, body: str = "Hello.") -> list[Outgoing]:
    return [
        Outgoing(
            key=n,
            sender="status@acme.example",
            recipient=f"r{n}@example.com",
            message=(
                f"To: r{n}@example.com\r\nMessage-ID: <m{n}@acme.example>\r\nSubject: n{n}\r\n\r\n{body}\r\n"
            ).encode(),
        )
        for n in range(count)
    ]


def send(sink: ScriptedSink, outgoing: list[Outgoing]) -> dict[object, smtplib.SMTPException | None]:
    with smtplib.SMTP("127.0.0.1", sink.port) as smtp:  # no EHLO yet, as the mail backend opens it
        return {outcome.key: outcome.error for outcome in send_all(smtp, outgoing)}


def test_every_mail_arrives_once_in_order_with_its_lines_intact(scripted_sink):
    body = ".a line starting with a dot\r\n..two dots\r\n.\r\nlast"
    outcomes = send(scripted_sink, mails(30, body))

    assert outcomes == dict.fromkeys(range(30))
    assert scripted_sink.recipients() == [f"r{n}@example.com" for n in range(30)]
    assert {raw.split(b"\r\n\r\n", 1)[1] for raw in scripted_sink.raw} == {f"{body}\r\n".encode()}
    assert [m["Message-ID"] for m in scripted_sink.messages] == [f"<m{n}@acme.example>" for n in range(30)]


def test_mail_rcpt_and_data_go_in_one_write_when_the_server_pipelines(scripted_sink):
    send(scripted_sink, mails(20))

    # Loopback can split a write now and then; waiting for every answer would give no True at all.
    assert sum(scripted_sink.mail_with_rcpt_waiting) >= 10


def test_a_server_without_pipelining_is_sent_one_command_at_a_time(scripted_sink):
    scripted_sink.pipelining = False
    scripted_sink.rcpt_answers["r1@example.com"] = "550 5.1.1 No such user"

    outcomes = send(scripted_sink, mails(4))

    assert not any(scripted_sink.mail_with_rcpt_waiting)
    assert isinstance(outcomes[1], smtplib.SMTPRecipientsRefused)
    assert scripted_sink.recipients() == ["r0@example.com", "r2@example.com", "r3@example.com"]


def test_a_recipient_refused_mid_pipeline_fails_alone(scripted_sink):
    scripted_sink.rcpt_answers["r2@example.com"] = "550 5.1.1 No such user"
    scripted_sink.rcpt_answers["r3@example.com"] = "451 4.3.0 Try again later"

    outcomes = send(scripted_sink, mails(6))

    assert outcomes[2].recipients == {"r2@example.com": (550, b"5.1.1 No such user")}
    assert outcomes[3].recipients == {"r3@example.com": (451, b"4.3.0 Try again later")}
    assert [key for key, error in outcomes.items() if error is None] == [0, 1, 4, 5]
    assert scripted_sink.recipients() == [
        "r0@example.com",
        "r1@example.com",
        "r4@example.com",
        "r5@example.com",
    ]


@pytest.mark.parametrize("answer", ["451 4.3.0 Queue full, try later", "554 5.6.0 Message refused"])
def test_a_message_refused_at_its_final_dot_is_not_accepted(scripted_sink, answer):
    scripted_sink.data_answers["r1@example.com"] = answer

    outcomes = send(scripted_sink, mails(3))

    assert isinstance(outcomes[1], smtplib.SMTPDataError)
    assert outcomes[1].smtp_code == int(answer[:3])
    assert outcomes[0] is None and outcomes[2] is None
    assert scripted_sink.recipients() == ["r0@example.com", "r2@example.com"]


def test_a_connection_lost_midway_reports_only_what_the_server_answered(scripted_sink):
    scripted_sink.hang_up_at = "r3@example.com"
    reported: list[object] = []

    with pytest.raises(smtplib.SMTPServerDisconnected), smtplib.SMTP("127.0.0.1", scripted_sink.port) as smtp:
        for outcome in send_all(smtp, mails(8)):
            assert outcome.accepted
            reported.append(outcome.key)

    assert reported == [0, 1, 2]


def test_the_data_block_ends_every_message_with_a_lone_dot():
    assert data_block(b"a\n.b\r\n") == b"a\r\n..b\r\n.\r\n"
    assert data_block(b"x") == b"x\r\n.\r\n"


def test_deliveries_the_server_did_not_accept_stay_unsent_when_it_hangs_up(
    scripted_sink, make_subscriber, declare
):
    for n in range(6):
        make_subscriber(f"r{n}@example.com")
    scripted_sink.hang_up_at = "r3@example.com"
    scripted_sink.rcpt_answers["r1@example.com"] = "550 5.1.1 No such user"
    declare()

    outbox.deliver_due(seconds=30)

    states = dict(Delivery.objects.values_list("subscriber__email", "state"))
    assert scripted_sink.recipients() == ["r0@example.com", "r2@example.com"]
    assert states == {
        "r0@example.com": DeliveryState.SENT,
        "r1@example.com": DeliveryState.FAILED,
        "r2@example.com": DeliveryState.SENT,
        "r3@example.com": DeliveryState.PENDING,
        "r4@example.com": DeliveryState.PENDING,
        "r5@example.com": DeliveryState.PENDING,
    }


def test_one_connection_carries_every_batch_of_a_dispatch_run(
    scripted_sink, settings, make_subscriber, declare, monkeypatch
):
    settings.NOTIFY_BATCH_SIZE = 5
    for n in range(12):
        make_subscriber(f"r{n:02}@example.com")
    declare()
    connections = []
    connect = smtplib.SMTP.connect
    monkeypatch.setattr(smtplib.SMTP, "connect", lambda *a, **k: connections.append(1) or connect(*a, **k))

    outbox.deliver_due(seconds=30)

    assert Delivery.objects.filter(state=DeliveryState.SENT).count() == 12
    assert len(scripted_sink.messages) == 12
    assert len(connections) == 1


def test_the_first_batch_of_a_dispatch_run_is_pipelined_too(scripted_sink, make_subscriber, declare):
    for n in range(10):
        make_subscriber(f"r{n}@example.com")
    declare()

    outbox.deliver_due(seconds=30)

    assert len(scripted_sink.messages) == 10
    assert sum(scripted_sink.mail_with_rcpt_waiting) >= 8


def test_a_message_read_back_is_the_one_sent(scripted_sink, make_subscriber, declare):
    make_subscriber("reader@example.com")
    declare("Database failover")

    outbox.deliver_due(seconds=30)

    (raw,) = scripted_sink.raw
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert parsed["Subject"].endswith("Database failover")
    assert parsed["To"] == "reader@example.com"


def test_a_batch_ending_in_a_refusal_leaves_the_kept_connection_ready_for_the_next(
    scripted_sink, settings, make_subscriber, declare
):
    settings.NOTIFY_BATCH_SIZE = 2
    for n in range(4):
        make_subscriber(f"r{n}@example.com")
    scripted_sink.rcpt_answers["r1@example.com"] = "451 4.3.0 Try again later"
    declare()

    outbox.deliver_due(seconds=30)

    states = dict(Delivery.objects.values_list("subscriber__email", "state"))
    assert scripted_sink.recipients() == ["r0@example.com", "r2@example.com", "r3@example.com"]
    assert states["r1@example.com"] == DeliveryState.PENDING  # retried later, not failed
