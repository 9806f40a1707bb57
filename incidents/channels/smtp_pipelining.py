"""Sending many mails over one open smtplib connection in few round trips (RFC 2920 pipelining).

smtplib waits for the answer to each command: MAIL, RCPT, DATA and the message are four round
trips a mail. A server that advertises PIPELINING takes a mail's message and then the next
mail's MAIL, RCPT and DATA in one write (RFC 2920 3.1: message content may open a group, DATA
must close it), so a mail costs one round trip. The answers come back in order, so each mail's
own outcome is read before it is reported: a mail counts as sent only once the server answered
its final "." with 2xx. Against a server without PIPELINING each mail goes through
`smtplib.SMTP.sendmail`.

A connection error (the server closing, a 421) is raised after the outcomes already read; the
mail in flight and every mail after it are then unreported, for the caller to retry.
"""

import re
import smtplib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

CRLF = b"\r\n"
_LINE_ENDS = re.compile(rb"\r\n|\n|\r(?!\n)")
_LEADING_DOT = re.compile(rb"(?m)^\.")
SERVICE_CLOSING = 421


@dataclass(frozen=True)
class Outgoing:
    """One mail to one recipient; `key` is what the caller tells its mails apart by."""

    key: object
    sender: str
    recipient: str
    message: bytes


@dataclass(frozen=True)
class Outcome:
    key: object
    error: smtplib.SMTPResponseException | smtplib.SMTPRecipientsRefused | None = None

    @property
    def accepted(self) -> bool:
        return self.error is None


def send_all(smtp: smtplib.SMTP, mails: Iterable[Outgoing]) -> Iterator[Outcome]:
    """Sends `mails` over `smtp` (connected, EHLO done), yielding each one's outcome in order.
    `mails` is read one ahead of the server: the next mail is built while the server answers."""
    smtp.ehlo_or_helo_if_needed()  # what the server offers is known only after EHLO
    if smtp.has_extn("pipelining"):
        return _pipelined(smtp, iter(mails))
    return _one_at_a_time(smtp, mails)


def data_block(message: bytes) -> bytes:
    """The message as DATA carries it: CRLF line ends, leading dots doubled, ending in "." alone."""
    text = _LEADING_DOT.sub(b"..", _LINE_ENDS.sub(CRLF, message))
    if not text.endswith(CRLF):
        text += CRLF
    return text + b"." + CRLF


def _one_at_a_time(smtp: smtplib.SMTP, mails: Iterable[Outgoing]) -> Iterator[Outcome]:
    for mail in mails:
        try:
            smtp.sendmail(mail.sender, [mail.recipient], mail.message)
        except (smtplib.SMTPSenderRefused, smtplib.SMTPRecipientsRefused, smtplib.SMTPDataError) as error:
            if getattr(error, "smtp_code", None) == SERVICE_CLOSING:
                raise smtplib.SMTPServerDisconnected(str(error)) from error
            yield Outcome(mail.key, error)
        else:
            yield Outcome(mail.key)


def _envelope(mail: Outgoing, *, reset: bool) -> bytes:
    # An address needing SMTPUTF8 never gets here (see email.py): the envelope is ASCII.
    commands = [b"RSET"] if reset else []
    commands += [
        b"MAIL FROM:" + smtplib.quoteaddr(mail.sender).encode("ascii"),
        b"RCPT TO:" + smtplib.quoteaddr(mail.recipient).encode("ascii"),
        b"DATA",
    ]
    return b"".join(command + CRLF for command in commands)


def _reply(smtp: smtplib.SMTP) -> tuple[int, bytes]:
    code, text = smtp.getreply()  # raises SMTPServerDisconnected when the connection closes
    if code == SERVICE_CLOSING:
        smtp.close()
        raise smtplib.SMTPServerDisconnected(f"{code} {text.decode(errors='replace')}")
    return code, text


def _pipelined(smtp: smtplib.SMTP, mails: Iterator[Outgoing]) -> Iterator[Outcome]:
    # RSET first: a kept connection's last transaction may have ended in a refusal, still open.
    current, in_flight, reset = next(mails, None), None, True
    while current is not None or in_flight is not None:
        group = data_block(in_flight.message) if in_flight is not None else b""
        if current is not None:
            group += _envelope(current, reset=reset)
        smtp.send(group)
        upcoming = next(mails, None)  # built while the server reads the group
        if in_flight is not None:
            yield _final_answer(smtp, in_flight)
            in_flight = None
        if current is not None:
            if reset:
                _reply(smtp)
            refusal = _envelope_answers(smtp, current)
            if refusal is None:
                in_flight, reset = current, False
            else:
                reset = True  # the refused transaction may hold a sender: start the next afresh
                yield refusal
        current = upcoming


def _final_answer(smtp: smtplib.SMTP, mail: Outgoing) -> Outcome:
    code, text = _reply(smtp)
    if 200 <= code < 300:
        return Outcome(mail.key)
    return Outcome(mail.key, smtplib.SMTPDataError(code, text))


def _envelope_answers(smtp: smtplib.SMTP, mail: Outgoing) -> Outcome | None:
    """Reads the answers to MAIL, RCPT and DATA: None when the server waits for the message."""
    mail_code, mail_text = _reply(smtp)
    rcpt_code, rcpt_text = _reply(smtp)
    data_code, data_text = _reply(smtp)
    if data_code == 354 and mail_code < 300 and rcpt_code < 300:
        return None
    if data_code == 354:
        # The server waits for a message it refused a sender or recipient for: a "." would deliver
        # an empty one to whatever it did accept, so only hanging up ends the transaction.
        smtp.close()
        raise smtplib.SMTPServerDisconnected(f"DATA accepted after {mail_code}/{rcpt_code}")
    error: smtplib.SMTPResponseException | smtplib.SMTPRecipientsRefused
    if not 200 <= mail_code < 300:
        error = smtplib.SMTPSenderRefused(mail_code, mail_text, mail.sender)
    elif not 200 <= rcpt_code < 300:
        error = smtplib.SMTPRecipientsRefused({mail.recipient: (rcpt_code, rcpt_text)})
    else:
        error = smtplib.SMTPDataError(data_code, data_text)
    return Outcome(mail.key, error)
